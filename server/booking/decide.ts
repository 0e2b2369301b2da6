// Pure decisions about one order (and the ticket it becomes once paid).
import { conflict, invalid, notFound, rateLimited } from '../errors.ts'
import type { Decider } from '../ledger/decider.ts'
import type { BookingFact, TicketsHeld } from './facts.ts'

export type OrderStatus = 'none' | 'held' | 'issued' | 'failed' | 'expired' | 'cancelled'

export type OrderState = {
  status: OrderStatus
  order: TicketsHeld['data'] | null
  ownerId: string | null
  formerOwners: string[]
  captured: string[]
  refundsRequested: string[]
  refunded: string[]
}

/** What a hold is judged against besides availability, all read in the hold's transaction. */
export type HoldChecks = {
  now: string
  /** when sales close: the event's start, or its own sales end if earlier */
  salesCloseAt: string
  /** unpaid seats held for this event from the buyer's client address, and the cap */
  heldFromAddress: number
  maxHeldFromAddress: number
  /** free events: tickets of this event the buyer has had issued (not cancelled), and the cap */
  issuedToBuyer: number
  maxTicketsPerAccount: number
}

/** When a ticket may still be cancelled with its refund: until `at`, `hours` before the start. */
export type CancelCutoff = { at: string; hours: number }

export type OrderCommand =
  | { type: 'Hold'; order: TicketsHeld['data']; available: number; checks?: HoldChecks }
  | {
      type: 'Capture'
      paymentId: string
      /** what the provider says was paid */
      amountPaise: number
      method: string | null
      /** seats of the ticket type free right now, in case the hold has lapsed */
      available: number
    }
  | { type: 'Fail'; paymentId: string | null; reason: string }
  | { type: 'Expire'; now: string }
  /** an unpaid hold given up by its buyer (a new checkout for the same event replaces it) */
  | { type: 'Release'; by: string; reason: string }
  | { type: 'Cancel'; by: string; now?: string; cutoff?: CancelCutoff | null }
  /** toId: the recipient's account, null when no account has the e-mail given */
  | { type: 'Transfer'; by: string; toId: string | null }
  | { type: 'RecordRefund'; paymentId: string; refundId: string }

export const NOT_ENOUGH_TICKETS = 'Not enough tickets available.'
export const TICKET_NOT_FOUND = 'Ticket not found.'
export const SALES_CLOSED = 'Booking for this event has closed.'
export const NO_SUCH_RECIPIENT = 'No account found with that email.'
export const REPLACED_BY_NEW_CHECKOUT = 'Replaced by a new checkout for the same event.'
const HELD_FROM_ADDRESS =
  'Too many seats of this event are held unpaid from your network right now. Please pay for or close an open checkout first.'

export const orderDecider: Decider<OrderState, OrderCommand, BookingFact> = {
  initialState: () => ({
    status: 'none',
    order: null,
    ownerId: null,
    formerOwners: [],
    captured: [],
    refundsRequested: [],
    refunded: [],
  }),

  evolve(state, fact) {
    switch (fact.type) {
      case 'TicketsHeld':
        return { ...state, status: 'held', order: fact.data }
      case 'PaymentCaptured':
        return { ...state, captured: [...state.captured, fact.data.paymentId] }
      case 'TicketsIssued':
        return { ...state, status: 'issued', ownerId: fact.data.ownerId }
      case 'PaymentFailed':
        return { ...state, status: 'failed' }
      case 'HoldExpired':
        return { ...state, status: 'expired' }
      case 'TicketCancelled':
        return { ...state, status: 'cancelled' }
      case 'TicketTransferred':
        return { ...state, ownerId: fact.data.toId, formerOwners: [...state.formerOwners, fact.data.fromId] }
      case 'RefundRequested':
        return { ...state, refundsRequested: [...state.refundsRequested, fact.data.paymentId] }
      case 'PaymentRefunded':
        return { ...state, refunded: [...state.refunded, fact.data.paymentId] }
      default:
        return fact satisfies never
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'Hold': {
        if (state.status !== 'none') throw conflict('This order exists already.')
        const order = command.order
        const checks = command.checks
        if (checks && checks.now >= checks.salesCloseAt) throw conflict(SALES_CLOSED)
        if (
          checks &&
          order.amountPaise === 0 &&
          checks.issuedToBuyer + order.quantity > checks.maxTicketsPerAccount
        ) {
          const left = Math.max(0, checks.maxTicketsPerAccount - checks.issuedToBuyer)
          throw conflict(
            `You can have at most ${checks.maxTicketsPerAccount} free tickets for this event${
              left > 0 ? `; you can book ${left} more.` : ', and you have them all.'
            }`,
          )
        }
        if (checks && checks.heldFromAddress + order.quantity > checks.maxHeldFromAddress) {
          throw rateLimited(HELD_FROM_ADDRESS, 60)
        }
        if (command.available < order.quantity) throw conflict(NOT_ENOUGH_TICKETS)
        if (order.amountPaise > 0) return [{ type: 'TicketsHeld', data: order }]
        // Free tickets need no payment: held and issued at once.
        return [
          { type: 'TicketsHeld', data: order },
          {
            type: 'TicketsIssued',
            data: {
              orderId: order.orderId,
              ownerId: order.buyerId,
              eventId: order.eventId,
              ticketTypeId: order.ticketTypeId,
              quantity: order.quantity,
              amountPaise: 0,
              afterExpiry: false,
            },
          },
        ]
      }
      case 'Capture': {
        const order = state.order
        if (!order) throw notFound('Order not found.')
        if (state.captured.includes(command.paymentId)) return []
        const { orderId } = order
        const captured: BookingFact = {
          type: 'PaymentCaptured',
          data: {
            orderId,
            paymentId: command.paymentId,
            amountPaise: command.amountPaise,
            method: command.method,
          },
        }
        const refund = (reason: 'sold out after hold expired' | 'duplicate payment'): BookingFact => ({
          type: 'RefundRequested',
          data: { orderId, paymentId: command.paymentId, amountPaise: command.amountPaise, reason },
        })
        const issue = (afterExpiry: boolean): BookingFact => ({
          type: 'TicketsIssued',
          data: {
            orderId,
            ownerId: order.buyerId,
            eventId: order.eventId,
            ticketTypeId: order.ticketTypeId,
            quantity: order.quantity,
            amountPaise: order.amountPaise,
            afterExpiry,
          },
        })
        switch (state.status) {
          case 'held':
            return [captured, issue(false)]
          case 'failed':
          case 'expired':
            // Paid after the hold lapsed: honoured while the seats are still there.
            return command.available >= order.quantity
              ? [captured, issue(true)]
              : [captured, refund('sold out after hold expired')]
          case 'issued':
          case 'cancelled':
            return [captured, refund('duplicate payment')]
          case 'none':
            throw notFound('Order not found.')
          default:
            return state.status satisfies never
        }
      }
      case 'Fail': {
        if (state.status !== 'held' || !state.order) return []
        return [
          {
            type: 'PaymentFailed',
            data: { orderId: state.order.orderId, paymentId: command.paymentId, reason: command.reason },
          },
        ]
      }
      case 'Expire': {
        if (state.status !== 'held' || !state.order || command.now < state.order.heldUntil) return []
        return [{ type: 'HoldExpired', data: { orderId: state.order.orderId } }]
      }
      case 'Release': {
        if (state.status !== 'held' || state.order?.buyerId !== command.by) return []
        return [
          {
            type: 'PaymentFailed',
            data: { orderId: state.order.orderId, paymentId: null, reason: command.reason },
          },
        ]
      }
      case 'Cancel': {
        // An unpaid hold given up by its buyer (checkout closed): its seats go back at once.
        if (state.status === 'held' && state.order?.buyerId === command.by) {
          return [
            {
              type: 'PaymentFailed',
              data: {
                orderId: state.order.orderId,
                paymentId: null,
                reason: 'The buyer closed the checkout.',
              },
            },
          ]
        }
        const order = ownedTicket(state, command.by)
        const cutoff = command.cutoff
        if (cutoff && command.now && command.now >= cutoff.at) {
          throw conflict(
            `This ticket can no longer be cancelled: cancellation closes ${cutoff.hours} hours before the event starts.`,
          )
        }
        const paymentId = state.captured[0]
        const facts: BookingFact[] = [
          {
            type: 'TicketCancelled',
            data: {
              orderId: order.orderId,
              ownerId: command.by,
              eventId: order.eventId,
              ticketTypeId: order.ticketTypeId,
              quantity: order.quantity,
            },
          },
        ]
        if (paymentId && order.amountPaise > 0) {
          facts.push({
            type: 'RefundRequested',
            data: { orderId: order.orderId, paymentId, amountPaise: order.amountPaise, reason: 'cancelled' },
          })
        }
        return facts
      }
      case 'Transfer': {
        // Whether the ticket is the caller's is judged first: nobody learns which e-mails have
        // accounts by trying them on someone else's ticket.
        const order = ownedTicket(state, command.by)
        if (command.toId === null) throw notFound(NO_SUCH_RECIPIENT)
        if (command.toId === command.by) throw invalid('You cannot transfer a ticket to yourself.')
        return [
          {
            type: 'TicketTransferred',
            data: { orderId: order.orderId, fromId: command.by, toId: command.toId },
          },
        ]
      }
      case 'RecordRefund': {
        const order = state.order
        if (
          !order ||
          !state.refundsRequested.includes(command.paymentId) ||
          state.refunded.includes(command.paymentId)
        ) {
          return []
        }
        return [
          {
            type: 'PaymentRefunded',
            data: {
              orderId: order.orderId,
              paymentId: command.paymentId,
              refundId: command.refundId,
              amountPaise: order.amountPaise,
            },
          },
        ]
      }
      default:
        return command satisfies never
    }
  },
}

/** The ticket, if `by` owns it now; otherwise the reason why not, as the error to answer. */
function ownedTicket(state: OrderState, by: string): TicketsHeld['data'] {
  const order = state.order
  if (!order || state.status === 'none') throw notFound(TICKET_NOT_FOUND)
  if (state.ownerId !== by) {
    if (state.formerOwners.includes(by)) throw conflict('This ticket has been transferred to someone else.')
    if (order.buyerId !== by) throw notFound(TICKET_NOT_FOUND)
  }
  switch (state.status) {
    case 'issued':
      return order
    case 'cancelled':
      throw conflict('This ticket is already cancelled.')
    case 'held':
      throw conflict('This order is not paid yet.')
    case 'failed':
    case 'expired':
      throw conflict('This order was not paid, so there is no ticket.')
    default:
      return state.status satisfies never
  }
}
