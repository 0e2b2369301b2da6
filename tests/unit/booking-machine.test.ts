// The booking machine without React or a server: the order, the checkout and the confirmation
// are provided fakes.
import { describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate'
import {
  type Booked,
  bookingMachine,
  bookingMessages,
  type CheckoutEvent,
  type CheckoutInput,
  type CheckoutPayment,
  type Confirmation,
  type Order,
  type OrderRequest,
} from '../../web/src/machines/booking.ts'

const NOW = Date.parse('2026-03-01T10:00:00Z')

const order = (overrides: Partial<Order> = {}): Order => ({
  orderId: 'order_ABC',
  amount: 300_000,
  currency: 'INR',
  keyId: 'rzp_test_local',
  provider: 'local',
  ticketId: 'ticket-1',
  heldUntil: new Date(NOW + 10 * 60_000).toISOString(),
  ...overrides,
})

const paid: CheckoutPayment = { paymentId: 'pay_1', orderId: 'order_ABC', signature: 'sig' }

/** an error shaped like the client's ApiError */
const refusal = (status: number, message: string) => Object.assign(new Error(message), { status })

type Fakes = {
  createOrder?: (request: OrderRequest) => Promise<Order>
  payLocally?: (input: { orderId: string; outcome: 'success' | 'failure' }) => Promise<CheckoutPayment>
  providerCheckout?: (input: CheckoutInput, sendBack: (event: CheckoutEvent) => void) => void
  confirmPayment?: (input: {
    payment: CheckoutPayment
    eventId: string
    ticketId: string
  }) => Promise<Confirmation>
}

function startBooking(fakes: Fakes = {}) {
  const effects = {
    notifySuccess: vi.fn<(message: string) => void>(),
    showConfirmation: vi.fn<(booked: Booked) => void>(),
  }
  const createOrder = vi.fn(fakes.createOrder ?? (async () => order()))
  const payLocally = vi.fn(
    fakes.payLocally ??
      (async ({ outcome }: { orderId: string; outcome: 'success' | 'failure' }) => {
        if (outcome === 'failure') throw refusal(402, 'Payment failed.')
        return paid
      }),
  )
  const providerCheckout = vi.fn(fakes.providerCheckout ?? (() => {}))
  const confirmPayment = vi.fn(
    fakes.confirmPayment ?? (async () => ({ status: 'issued' as const, message: 'Booking Successful!' })),
  )
  const machine = bookingMachine.provide({
    actors: {
      createOrder: fromPromise(({ input }) => createOrder(input)),
      payLocally: fromPromise(({ input }) => payLocally(input)),
      providerCheckout: fromCallback<CheckoutEvent, CheckoutInput>(({ input, sendBack }) => {
        providerCheckout(input, sendBack)
      }),
      confirmPayment: fromPromise(({ input }) => confirmPayment(input)),
    },
    actions: {
      notifySuccess: (_, { message }) => effects.notifySuccess(message),
      showConfirmation: (_, booked) => effects.showConfirmation(booked),
    },
  })
  const actor = createActor(machine, { input: { eventTitle: 'Jazz Night' } }).start()
  return { actor, effects, createOrder, payLocally, providerCheckout, confirmPayment }
}

const request: OrderRequest = { eventId: 'event-1', ticketType: 'VIP', quantity: 2, amount: 3000 }
const book = (overrides: Partial<OrderRequest> = {}, now = NOW) =>
  ({ type: 'BOOK', request: { ...request, ...overrides }, now }) as const

describe('booking machine', () => {
  it('starts idle, ready to book', () => {
    const { actor } = startBooking()
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().can(book())).toBe(true)
    expect(actor.getSnapshot().hasTag('busy')).toBe(false)
  })

  it("books through the local checkout: order, dialog, payment, confirmation, toast and the ticket's confirmation page", async () => {
    const { actor, effects, createOrder, payLocally, confirmPayment } = startBooking()
    actor.send(book())
    expect(actor.getSnapshot().value).toBe('creatingOrder')
    expect(actor.getSnapshot().hasTag('busy')).toBe(true)

    const dialog = await waitFor(actor, (snapshot) => snapshot.matches({ checkout: 'dialog' }))
    expect(createOrder).toHaveBeenCalledWith(request)
    expect(dialog.context.order?.reply.orderId).toBe('order_ABC')
    expect(dialog.hasTag('busy')).toBe(true)

    actor.send({ type: 'PAY', outcome: 'success' })
    const done = await waitFor(actor, (snapshot) => snapshot.status === 'done')
    expect(done.value).toBe('done')
    expect(payLocally).toHaveBeenCalledWith({ orderId: 'order_ABC', outcome: 'success' })
    expect(confirmPayment).toHaveBeenCalledWith({ payment: paid, eventId: 'event-1', ticketId: 'ticket-1' })
    expect(effects.notifySuccess).toHaveBeenCalledExactlyOnceWith('Booking Successful!')
    expect(effects.showConfirmation).toHaveBeenCalledExactlyOnceWith({
      eventId: 'event-1',
      ticketId: 'ticket-1',
    })
    expect(done.context.booked).toEqual({ eventId: 'event-1', ticketId: 'ticket-1' })
    // a paid order is never offered again
    expect(done.context.order).toBeNull()
    expect(done.context.error).toBeNull()
  })

  it("books through the provider's checkout when the server uses Razorpay", async () => {
    const { actor, effects, providerCheckout, payLocally } = startBooking({
      createOrder: async () => order({ provider: 'razorpay', keyId: 'rzp_test_key' }),
      providerCheckout: (_, sendBack) => {
        setTimeout(() => sendBack({ type: 'CHECKOUT.PAID', payment: paid }), 0)
      },
    })
    actor.send(book())
    await waitFor(actor, (snapshot) => snapshot.status === 'done')
    expect(providerCheckout).toHaveBeenCalledOnce()
    expect(providerCheckout.mock.calls[0]?.[0]).toEqual({
      order: order({ provider: 'razorpay', keyId: 'rzp_test_key' }),
      eventTitle: 'Jazz Night',
    })
    expect(payLocally).not.toHaveBeenCalled()
    expect(effects.notifySuccess).toHaveBeenCalledWith('Booking Successful!')
    expect(effects.showConfirmation).toHaveBeenCalledExactlyOnceWith({
      eventId: 'event-1',
      ticketId: 'ticket-1',
    })
  })

  it('issues a free ticket with no checkout at all', async () => {
    const { actor, effects, confirmPayment } = startBooking({
      createOrder: async () => order({ provider: 'free', amount: 0, orderId: 'free_1' }),
    })
    actor.send(book())
    await waitFor(actor, (snapshot) => snapshot.status === 'done')
    expect(confirmPayment).not.toHaveBeenCalled()
    expect(effects.notifySuccess).toHaveBeenCalledWith('Booking Successful!')
    expect(effects.showConfirmation).toHaveBeenCalledExactlyOnceWith({
      eventId: 'event-1',
      ticketId: 'ticket-1',
    })
  })

  it("says 'Payment failed. Please try again.' when the payer fails the payment", async () => {
    const { actor, effects, confirmPayment } = startBooking()
    actor.send(book())
    await waitFor(actor, (snapshot) => snapshot.matches({ checkout: 'dialog' }))
    actor.send({ type: 'PAY', outcome: 'failure' })
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe(bookingMessages.paymentFailed)
    expect(failed.hasTag('busy')).toBe(false)
    expect(confirmPayment).not.toHaveBeenCalled()
    expect(effects.showConfirmation).not.toHaveBeenCalled()
    expect(failed.can(book())).toBe(true)
  })

  it("says 'Payment failed. Please try again.' when the provider reports a failed payment", async () => {
    const { actor } = startBooking({
      createOrder: async () => order({ provider: 'razorpay' }),
      providerCheckout: (_, sendBack) => sendBack({ type: 'CHECKOUT.FAILED' }),
    })
    actor.send(book())
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe('Payment failed. Please try again.')
  })

  it('fails with the same words when the server does not confirm the payment', async () => {
    const { actor, effects } = startBooking({
      confirmPayment: async () => {
        throw refusal(400, 'Payment verification failed.')
      },
    })
    actor.send(book())
    await waitFor(actor, (snapshot) => snapshot.matches({ checkout: 'dialog' }))
    actor.send({ type: 'PAY', outcome: 'success' })
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe('Payment failed. Please try again.')
    expect(effects.notifySuccess).not.toHaveBeenCalled()
  })

  it("shows the server's reason under it when a late payment is refunded instead of issued", async () => {
    const why =
      "This promo code has been used up. Your checkout had closed before this payment arrived, so no ticket was issued at the code's price; the payment will be refunded in full."
    const { actor, effects } = startBooking({
      confirmPayment: async () => {
        throw refusal(409, why)
      },
    })
    actor.send(book())
    await waitFor(actor, (snapshot) => snapshot.matches({ checkout: 'dialog' }))
    actor.send({ type: 'PAY', outcome: 'success' })
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe('Payment failed. Please try again.')
    expect(failed.context.detail).toBe(why)
    expect(failed.context.booked).toBeNull()
    expect(effects.notifySuccess).not.toHaveBeenCalled()
  })

  it('says the payment system is down when the provider script cannot be loaded', async () => {
    const { actor } = startBooking({
      createOrder: async () => order({ provider: 'razorpay' }),
      providerCheckout: (_, sendBack) => sendBack({ type: 'CHECKOUT.UNAVAILABLE' }),
    })
    actor.send(book())
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe('Payment system error. Try again later.')
  })

  it("says 'Error initiating payment process' when the order cannot be created", async () => {
    const { actor } = startBooking({
      createOrder: async () => {
        throw new TypeError('Failed to fetch')
      },
    })
    actor.send(book())
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe('Error initiating payment process')
    expect(failed.context.detail).toBeNull()

    actor.send({ type: 'EDIT' })
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.error).toBeNull()
  })

  it("adds the server's reason when it refuses the order", async () => {
    const { actor } = startBooking({
      createOrder: async () => {
        throw refusal(400, 'You can book at most 10 tickets at once.')
      },
    })
    actor.send(book({ quantity: 11 }))
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe('Error initiating payment process')
    expect(failed.context.detail).toBe('You can book at most 10 tickets at once.')
  })

  it("goes back to choosing with the server's message when the tickets are sold out", async () => {
    const { actor, payLocally } = startBooking({
      createOrder: async () => {
        throw refusal(409, 'Not enough tickets available.')
      },
    })
    actor.send(book())
    const idle = await waitFor(
      actor,
      (snapshot) => snapshot.matches('idle') && snapshot.context.error !== null,
    )
    expect(idle.context.error).toBe('Not enough tickets available.')
    expect(idle.context.order).toBeNull()
    expect(payLocally).not.toHaveBeenCalled()
    expect(idle.can(book({ quantity: 1 }))).toBe(true)
  })

  it('goes back to choosing when the payer closes the checkout, and reopens the same held order', async () => {
    const { actor, createOrder, confirmPayment } = startBooking()
    actor.send(book())
    await waitFor(actor, (snapshot) => snapshot.matches({ checkout: 'dialog' }))
    actor.send({ type: 'CLOSE' })
    const idle = actor.getSnapshot()
    expect(idle.value).toBe('idle')
    expect(idle.context.notice).toBe(bookingMessages.checkoutClosed)
    expect(idle.context.error).toBeNull()
    expect(confirmPayment).not.toHaveBeenCalled()

    // The same choice while the hold lasts: no second hold, the same order's checkout.
    actor.send(book({}, NOW + 60_000))
    expect(actor.getSnapshot().matches({ checkout: 'dialog' })).toBe(true)
    expect(createOrder).toHaveBeenCalledOnce()
    actor.send({ type: 'CLOSE' })

    // Another choice, or a hold about to lapse, asks for a new order.
    actor.send(book({ quantity: 3 }, NOW + 60_000))
    expect(actor.getSnapshot().value).toBe('creatingOrder')
    await waitFor(actor, (snapshot) => snapshot.matches({ checkout: 'dialog' }))
    actor.send({ type: 'CLOSE' })
    actor.send(book({ quantity: 3 }, NOW + 10 * 60_000))
    expect(actor.getSnapshot().value).toBe('creatingOrder')
    expect(createOrder).toHaveBeenCalledTimes(3)
  })

  it('treats a closed provider checkout the same way', async () => {
    const { actor } = startBooking({
      createOrder: async () => order({ provider: 'razorpay' }),
      providerCheckout: (_, sendBack) => sendBack({ type: 'CHECKOUT.CLOSED' }),
    })
    actor.send(book())
    const idle = await waitFor(
      actor,
      (snapshot) => snapshot.matches('idle') && snapshot.context.notice !== null,
    )
    expect(idle.context.notice).toBe(bookingMessages.checkoutClosed)
  })

  it('does not book twice on a double click', async () => {
    let answer: (order: Order) => void = () => {}
    const { actor, createOrder } = startBooking({
      createOrder: () =>
        new Promise<Order>((resolve) => {
          answer = resolve
        }),
    })
    actor.send(book())
    expect(actor.getSnapshot().can(book())).toBe(false)
    actor.send(book())
    expect(createOrder).toHaveBeenCalledOnce()

    answer(order())
    const dialog = await waitFor(actor, (snapshot) => snapshot.matches({ checkout: 'dialog' }))
    expect(dialog.can(book())).toBe(false)
    actor.send({ type: 'PAY', outcome: 'success' })
    expect(actor.getSnapshot().can({ type: 'PAY', outcome: 'success' })).toBe(false)
    await waitFor(actor, (snapshot) => snapshot.status === 'done')
    expect(createOrder).toHaveBeenCalledOnce()
  })

  it('refuses a quantity under 1 without calling the server', () => {
    const { actor, createOrder } = startBooking()
    actor.send(book({ quantity: 0 }))
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.error).toBe('Quantity must be at least 1.')
    actor.send(book({ quantity: 1.5 }))
    expect(createOrder).not.toHaveBeenCalled()
  })

  it("passes on the server's words when the ticket is still being issued", async () => {
    const { actor, effects } = startBooking({
      confirmPayment: async () => ({
        status: 'pending',
        message: 'Payment received. Your ticket is being issued.',
      }),
    })
    actor.send(book())
    await waitFor(actor, (snapshot) => snapshot.matches({ checkout: 'dialog' }))
    actor.send({ type: 'PAY', outcome: 'success' })
    await waitFor(actor, (snapshot) => snapshot.status === 'done')
    expect(effects.notifySuccess).toHaveBeenCalledWith('Payment received. Your ticket is being issued.')
    // its page says what is known so far
    expect(effects.showConfirmation).toHaveBeenCalledExactlyOnceWith({
      eventId: 'event-1',
      ticketId: 'ticket-1',
    })
  })

  it('opens the confirmation of the ticket the last order made, after a failed first try', async () => {
    let n = 0
    const { actor, effects } = startBooking({
      createOrder: async () => {
        n += 1
        return order({ orderId: `order_${n}`, ticketId: `ticket-${n}` })
      },
    })
    actor.send(book())
    await waitFor(actor, (snapshot) => snapshot.matches({ checkout: 'dialog' }))
    actor.send({ type: 'PAY', outcome: 'failure' })
    await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(actor.getSnapshot().context.booked).toBeNull()
    actor.send(book())
    await waitFor(actor, (snapshot) => snapshot.matches({ checkout: 'dialog' }))
    actor.send({ type: 'PAY', outcome: 'success' })
    await waitFor(actor, (snapshot) => snapshot.status === 'done')
    expect(effects.showConfirmation).toHaveBeenCalledExactlyOnceWith({
      eventId: 'event-1',
      ticketId: 'ticket-2',
    })
  })
})

describe('booking chosen seats (issue 40)', () => {
  const seated = { ticketType: 'Stalls', quantity: 2, seats: ['s1', 's2'] }

  it('asks for an order of the seats, and reopens the held one only for the same seats', async () => {
    const { actor, createOrder } = startBooking({
      createOrder: async () =>
        order({ seats: [{ id: 's1', section: 'Stalls', row: 'F', number: 12 }] as Order['seats'] }),
    })
    actor.send(book(seated))
    const dialog = await waitFor(actor, (snapshot) => snapshot.matches({ checkout: 'dialog' }))
    expect(createOrder).toHaveBeenCalledWith({ ...request, ...seated })
    expect(dialog.context.order?.reply.seats?.[0]?.row).toBe('F')
    actor.send({ type: 'CLOSE' })

    actor.send(book(seated, NOW + 60_000))
    expect(actor.getSnapshot().matches({ checkout: 'dialog' })).toBe(true)
    actor.send({ type: 'CLOSE' })

    // other seats, as many: a new order
    actor.send(book({ ...seated, seats: ['s1', 's3'] }, NOW + 60_000))
    expect(actor.getSnapshot().value).toBe('creatingOrder')
    expect(createOrder).toHaveBeenCalledTimes(2)
  })

  it("goes back to choosing with the server's words when the seats were taken", async () => {
    const { actor } = startBooking({
      createOrder: async () => {
        throw refusal(409, 'Some of the seats you chose are no longer available.')
      },
    })
    actor.send(book(seated))
    const idle = await waitFor(
      actor,
      (snapshot) => snapshot.matches('idle') && snapshot.context.error !== null,
    )
    expect(idle.context.error).toBe('Some of the seats you chose are no longer available.')
  })
})

describe("the order's body", () => {
  it('names the seats (and a promo code) for chosen seats, as before otherwise', async () => {
    const { orderBody } = await import('../../web/src/api/booking.ts')
    expect(orderBody({ ...request, seats: ['s1', 's2'], promoCode: 'DIWALI' })).toEqual({
      eventId: 'event-1',
      seats: ['s1', 's2'],
      promoCode: 'DIWALI',
    })
    expect(orderBody(request)).toBe(request)
  })
})
