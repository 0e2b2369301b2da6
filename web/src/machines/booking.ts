// The booking flow as a state machine, free of React and fetch (SPEC §4): idle → creatingOrder →
// checkout → confirming → done, or failed. Sold out and a closed checkout go back to idle with a
// message. The screen supplies the calls (order, the local gateway's payment, the provider's
// checkout, confirmation) and the effects (toast, the way to the booked ticket's confirmation:
// SPEC §4 went home, issue 12 shows what was bought instead).
import { assign, fromCallback, fromPromise, setup } from 'xstate'
import type { Breakdown } from '../../../contracts/billing.ts'

export const bookingMessages = {
  scriptMissing: 'Payment system error. Try again later.',
  orderFailed: 'Error initiating payment process',
  paymentFailed: 'Payment failed. Please try again.',
  success: 'Booking Successful!',
  checkoutClosed: 'Payment cancelled. Your tickets stay reserved for a few minutes if you try again.',
  quantity: 'Quantity must be at least 1.',
} as const

/** What the buyer asks for; `amount` (rupees) is informative: the server prices the order. */
export type OrderRequest = {
  eventId: string
  ticketType: string
  quantity: number
  amount: number
  /** a promo code of the event (issue 17) */
  promoCode?: string
  /** the seats chosen on the event's seat map (issue 40): the order is for these; `quantity` is
   * their number and `ticketType` their section's */
  seats?: string[]
}

/** POST /ticket/create's answer (contracts/booking.ts CreateOrderReply) */
export type Order = {
  orderId: string
  amount: number
  currency: 'INR'
  keyId: string
  provider: 'local' | 'razorpay' | 'free'
  ticketId: string
  heldUntil: string
  /** said when this checkout replaced the buyer's earlier unpaid one for the same event */
  message?: string
  /** a seated order's seats (issue 40): those chosen, or the best ones the server found */
  seats?: { id: string; section: string; row: string; number: string | number }[]
  /** what the amount is made of, in rupees: price, taxes, booking fee and its tax (issue 42) */
  breakdown?: Breakdown
}

/** the checkout's success payload (Razorpay's razorpay_* fields, in our words) */
export type CheckoutPayment = { paymentId: string; orderId: string; signature: string }

/** what the provider's checkout needs to open */
export type CheckoutInput = { order: Order; eventTitle: string }

export type Confirmation = { status: 'issued' | 'pending'; message: string }

/** the ticket the flow ended with, for its confirmation page */
export type Booked = { eventId: string; ticketId: string }

export type CheckoutEvent =
  | { type: 'CHECKOUT.PAID'; payment: CheckoutPayment }
  | { type: 'CHECKOUT.FAILED' }
  | { type: 'CHECKOUT.CLOSED' }
  | { type: 'CHECKOUT.UNAVAILABLE' }

export type BookingEvent =
  | {
      type: 'BOOK'
      request: OrderRequest
      /** the moment of the click, to know whether an earlier hold is still good */
      now: number
    }
  /** in the local gateway's dialog */
  | { type: 'PAY'; outcome: 'success' | 'failure' }
  | { type: 'CLOSE' }
  | { type: 'EDIT' }
  | CheckoutEvent

export type BookingContext = {
  eventTitle: string
  request: OrderRequest | null
  /** the order being paid for, with what was asked */
  order: { request: OrderRequest; reply: Order } | null
  payment: CheckoutPayment | null
  /** the main message when something went wrong */
  error: string | null
  /** the server's words under it, when it said why */
  detail: string | null
  /** a note that is not an error (a closed checkout) */
  notice: string | null
  /** what the toast says once booked */
  success: string | null
  /** the ticket once booked (paid, or free) */
  booked: Booked | null
}

/** An error the server answered with: its status and message (ApiError has both). */
const refusalOf = (error: unknown): { status: number; message: string } | null => {
  if (typeof error !== 'object' || error === null) return null
  const { status, message } = error as { status?: unknown; message?: unknown }
  return typeof status === 'number' && status >= 400 && status < 500 && typeof message === 'string'
    ? { status, message }
    : null
}

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} was not provided`))

const sameSeats = (a: OrderRequest, b: OrderRequest) =>
  (a.seats ?? []).length === (b.seats ?? []).length && (a.seats ?? []).every((id, i) => b.seats?.[i] === id)

const sameRequest = (a: OrderRequest, b: OrderRequest) =>
  a.eventId === b.eventId && a.ticketType === b.ticketType && a.quantity === b.quantity && sameSeats(a, b)

export const bookingMachine = setup({
  types: {
    context: {} as BookingContext,
    events: {} as BookingEvent,
    input: {} as { eventTitle: string },
    tags: {} as 'busy',
  },
  actors: {
    createOrder: fromPromise<Order, OrderRequest>(notProvided('createOrder')),
    payLocally: fromPromise<CheckoutPayment, { orderId: string; outcome: 'success' | 'failure' }>(
      notProvided('payLocally'),
    ),
    /** the provider's own checkout (Razorpay): sends back CHECKOUT.* events */
    providerCheckout: fromCallback<CheckoutEvent, CheckoutInput>(({ sendBack }) => {
      sendBack({ type: 'CHECKOUT.UNAVAILABLE' })
    }),
    confirmPayment: fromPromise<
      Confirmation,
      { payment: CheckoutPayment; eventId: string; ticketId: string }
    >(notProvided('confirmPayment')),
  },
  actions: {
    notifySuccess: (_, _params: { message: string }) => {},
    showConfirmation: (_, _params: Booked) => {},
    /** the ordered ticket is the booked one (its id is the order's) */
    book: assign({
      booked: ({ context }) =>
        context.order
          ? { eventId: context.order.request.eventId, ticketId: context.order.reply.ticketId }
          : null,
    }),
    start: assign({
      request: ({ event }) => (event.type === 'BOOK' ? event.request : null),
      error: null,
      detail: null,
      notice: null,
      payment: null,
    }),
    clearMessages: assign({ error: null, detail: null, notice: null }),
    fail: assign((_, params: { error: string; detail?: string | null }) => ({
      error: params.error,
      detail: params.detail ?? null,
      notice: null,
    })),
  },
  guards: {
    quantityInvalid: ({ event }) =>
      event.type === 'BOOK' && (!Number.isInteger(event.request.quantity) || event.request.quantity < 1),
    /** the same choice as the order whose checkout was closed, and its hold has not lapsed */
    heldOrderReusable: ({ context, event }) =>
      event.type === 'BOOK' &&
      context.order !== null &&
      context.order.reply.provider !== 'free' &&
      sameRequest(context.order.request, event.request) &&
      Date.parse(context.order.reply.heldUntil) - event.now > 30_000,
    isFree: ({ context }) => context.order?.reply.provider === 'free',
    isLocal: ({ context }) => context.order?.reply.provider === 'local',
    soldOut: (_, { error }: { error: unknown }) => refusalOf(error)?.status === 409,
  },
}).createMachine({
  id: 'booking',
  initial: 'idle',
  context: ({ input }) => ({
    eventTitle: input.eventTitle,
    request: null,
    order: null,
    payment: null,
    error: null,
    detail: null,
    notice: null,
    success: null,
    booked: null,
  }),
  states: {
    idle: {
      on: {
        BOOK: [
          {
            guard: 'quantityInvalid',
            actions: { type: 'fail', params: { error: bookingMessages.quantity } },
          },
          { guard: 'heldOrderReusable', target: 'checkout', actions: 'start' },
          { target: 'creatingOrder', actions: 'start' },
        ],
        EDIT: { actions: 'clearMessages' },
      },
    },
    creatingOrder: {
      tags: ['busy'],
      invoke: {
        src: 'createOrder',
        input: ({ context }) => context.request ?? { eventId: '', ticketType: '', quantity: 0, amount: 0 },
        onDone: {
          target: 'checkout',
          actions: assign({
            order: ({ context, event }) =>
              context.request ? { request: context.request, reply: event.output } : null,
          }),
        },
        onError: [
          {
            // Sold out: the server's words, and the buyer may choose again.
            guard: { type: 'soldOut', params: ({ event }) => ({ error: event.error }) },
            target: 'idle',
            actions: {
              type: 'fail',
              params: ({ event }) => ({
                error: refusalOf(event.error)?.message ?? bookingMessages.orderFailed,
              }),
            },
          },
          {
            target: 'failed',
            actions: {
              type: 'fail',
              params: ({ event }) => ({
                error: bookingMessages.orderFailed,
                detail: refusalOf(event.error)?.message ?? null,
              }),
            },
          },
        ],
      },
    },
    checkout: {
      tags: ['busy'],
      initial: 'opening',
      states: {
        opening: {
          always: [
            // A free ticket is issued with the order: nothing to pay.
            {
              guard: 'isFree',
              target: '#booking.done',
              actions: [assign({ success: bookingMessages.success }), 'book'],
            },
            { guard: 'isLocal', target: 'dialog' },
            { target: 'provider' },
          ],
        },
        /** the local gateway's dialog is open: pay, fail, or close */
        dialog: {
          on: {
            PAY: 'paying',
            CLOSE: '#booking.closed',
          },
        },
        paying: {
          invoke: {
            src: 'payLocally',
            input: ({ context, event }) => ({
              orderId: context.order?.reply.orderId ?? '',
              outcome: event.type === 'PAY' ? event.outcome : 'failure',
            }),
            onDone: {
              target: '#booking.confirming',
              actions: assign({ payment: ({ event }) => event.output }),
            },
            onError: {
              target: '#booking.failed',
              actions: { type: 'fail', params: { error: bookingMessages.paymentFailed } },
            },
          },
        },
        /** the provider's checkout is open (or its script is loading) */
        provider: {
          invoke: {
            src: 'providerCheckout',
            input: ({ context }) => ({
              order: context.order?.reply as Order,
              eventTitle: context.eventTitle,
            }),
          },
          on: {
            'CHECKOUT.PAID': {
              target: '#booking.confirming',
              actions: assign({ payment: ({ event }) => event.payment }),
            },
            'CHECKOUT.FAILED': {
              target: '#booking.failed',
              actions: { type: 'fail', params: { error: bookingMessages.paymentFailed } },
            },
            'CHECKOUT.CLOSED': '#booking.closed',
            'CHECKOUT.UNAVAILABLE': {
              target: '#booking.failed',
              actions: { type: 'fail', params: { error: bookingMessages.scriptMissing } },
            },
          },
        },
      },
    },
    /** the buyer closed the checkout: back to choosing, the order kept for another try */
    closed: {
      always: { target: 'idle', actions: assign({ notice: bookingMessages.checkoutClosed }) },
    },
    confirming: {
      tags: ['busy'],
      invoke: {
        src: 'confirmPayment',
        input: ({ context }) => ({
          payment: context.payment as CheckoutPayment,
          eventId: context.order?.request.eventId ?? '',
          ticketId: context.order?.reply.ticketId ?? '',
        }),
        onDone: {
          target: 'done',
          actions: [
            assign({
              // still being issued: the server's own words rather than a success it has not seen
              success: ({ event }) =>
                event.output.status === 'issued' ? bookingMessages.success : event.output.message,
            }),
            'book',
            // A paid order is never offered again (a failed one is dropped on entering failed).
            assign({ order: null }),
          ],
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'fail',
            // the server's words under it when it said why (a late payment refunded: the seats or
            // the promo code were gone by the time it arrived)
            params: ({ event }) => ({
              error: bookingMessages.paymentFailed,
              detail: refusalOf(event.error)?.message ?? null,
            }),
          },
        },
      },
    },
    failed: {
      // A failed or refused order is not reused: a new attempt asks for a new one.
      entry: assign({ order: null }),
      on: {
        BOOK: [
          {
            guard: 'quantityInvalid',
            actions: { type: 'fail', params: { error: bookingMessages.quantity } },
          },
          { target: 'creatingOrder', actions: 'start' },
        ],
        EDIT: { target: 'idle', actions: 'clearMessages' },
      },
    },
    done: {
      type: 'final',
      // the button stays disabled while the confirmation opens
      tags: ['busy'],
      entry: [
        {
          type: 'notifySuccess',
          params: ({ context }) => ({ message: context.success ?? bookingMessages.success }),
        },
        {
          type: 'showConfirmation',
          params: ({ context }) => context.booked ?? { eventId: '', ticketId: '' },
        },
      ],
    },
  },
})
