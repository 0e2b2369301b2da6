// given / when / then for the order decider: every command against every state an order can be in.
import { describe, expect, it } from 'vitest'
import {
  type HoldChecks,
  NO_SUCH_RECIPIENT,
  NOT_ENOUGH_TICKETS,
  type OrderCommand,
  orderDecider,
  type PassScan,
  REPLACED_BY_NEW_CHECKOUT,
  SALES_CLOSED,
  scanVerdict,
  TICKET_NOT_FOUND,
  USED_AT_DOOR,
} from '../../server/booking/decide.ts'
import type {
  BookingFact,
  PassAdmitted,
  PassScanRefused,
  RefundReason,
  TicketsHeld,
  TicketsIssued,
} from '../../server/booking/facts.ts'
import { PROMO_DISABLED, PROMO_USED_UP, type PromoTerms } from '../../server/booking/promo.ts'
import { fold } from '../../server/ledger/decider.ts'
import { deciderSpec } from '../support/decider-spec.ts'

const { given } = deciderSpec(orderDecider)

const order: TicketsHeld['data'] = {
  orderId: 'o1',
  buyerId: 'asha',
  eventId: 'e1',
  organizerId: 'org1',
  ticketTypeId: 'vip',
  ticketType: 'VIP',
  quantity: 2,
  unitPricePaise: 149900,
  amountPaise: 299800,
  provider: 'local',
  providerOrderId: 'order_1',
  heldUntil: '2030-01-01T10:10:00.000Z',
}
const freeOrder: TicketsHeld['data'] = {
  ...order,
  unitPricePaise: 0,
  amountPaise: 0,
  provider: 'free',
  providerOrderId: 'free_o1',
}

// facts
const held: BookingFact = { type: 'TicketsHeld', data: order }
const captured = (paymentId = 'pay_1'): BookingFact => ({
  type: 'PaymentCaptured',
  data: { orderId: 'o1', paymentId, amountPaise: 299800, method: 'card' },
})
const issuedData: TicketsIssued['data'] = {
  orderId: 'o1',
  ownerId: 'asha',
  eventId: 'e1',
  ticketTypeId: 'vip',
  quantity: 2,
  amountPaise: 299800,
  afterExpiry: false,
}
const issued = (afterExpiry = false): BookingFact => ({
  type: 'TicketsIssued',
  data: { ...issuedData, afterExpiry },
})
/** issued after a lapse counted as released (a checkout given up or run out, not a failed payment) */
const issuedAfterRelease: BookingFact = {
  type: 'TicketsIssued',
  data: { ...issuedData, afterExpiry: true, fromReleased: true },
}
const failed = (paymentId: string | null = 'pay_0'): BookingFact => ({
  type: 'PaymentFailed',
  data: { orderId: 'o1', paymentId, reason: 'Declined.' },
})
const expired: BookingFact = { type: 'HoldExpired', data: { orderId: 'o1', released: true } }
/** as facts written before releases were told apart from failed payments (counted as failed) */
const expiredBefore: BookingFact = { type: 'HoldExpired', data: { orderId: 'o1' } }
const cancelled = (ownerId = 'asha'): BookingFact => ({
  type: 'TicketCancelled',
  data: { orderId: 'o1', ownerId, eventId: 'e1', ticketTypeId: 'vip', quantity: 2 },
})
const transferred = (fromId: string, toId: string): BookingFact => ({
  type: 'TicketTransferred',
  data: { orderId: 'o1', fromId, toId },
})
const refundRequested = (reason: RefundReason, paymentId = 'pay_1'): BookingFact => ({
  type: 'RefundRequested',
  data: { orderId: 'o1', paymentId, amountPaise: 299800, reason },
})
const refunded = (paymentId = 'pay_1', refundId = 'rfnd_1'): BookingFact => ({
  type: 'PaymentRefunded',
  data: { orderId: 'o1', paymentId, refundId, amountPaise: 299800 },
})

// commands
const hold = (available: number, data = order): OrderCommand => ({ type: 'Hold', order: data, available })
const capture = (available: number, paymentId = 'pay_1'): OrderCommand => ({
  type: 'Capture',
  paymentId,
  amountPaise: 299800,
  method: 'card',
  available,
})
const fail: OrderCommand = { type: 'Fail', paymentId: 'pay_0', reason: 'Declined.' }
const expire = (now: string): OrderCommand => ({ type: 'Expire', now })
const cancel = (by: string): OrderCommand => ({ type: 'Cancel', by })
const transfer = (by: string, toId: string): OrderCommand => ({ type: 'Transfer', by, toId })
const recordRefund = (paymentId = 'pay_1', refundId = 'rfnd_1'): OrderCommand => ({
  type: 'RecordRefund',
  paymentId,
  refundId,
})

const BEFORE_DEADLINE = '2030-01-01T10:09:59.999Z'
const AT_DEADLINE = '2030-01-01T10:10:00.000Z'
const AFTER_DEADLINE = '2030-01-01T10:10:00.001Z'

const paidTicket = [held, captured(), issued()]

describe('Hold', () => {
  it('holds the seats when enough are available', () => given([]).when(hold(2)).then([held]))
  it('holds when more than enough are available', () => given([]).when(hold(500)).then([held]))
  it('refuses when fewer are available than asked', () =>
    given([]).when(hold(1)).thenRefuses('conflict', NOT_ENOUGH_TICKETS))
  it('refuses when none are available', () =>
    given([]).when(hold(0)).thenRefuses('conflict', NOT_ENOUGH_TICKETS))
  it('refuses when availability is negative (oversold by someone else)', () =>
    given([]).when(hold(-3)).thenRefuses('conflict', NOT_ENOUGH_TICKETS))
  it('holds and issues free tickets at once', () =>
    given([])
      .when(hold(2, freeOrder))
      .then([
        { type: 'TicketsHeld', data: freeOrder },
        {
          type: 'TicketsIssued',
          data: {
            orderId: 'o1',
            ownerId: 'asha',
            eventId: 'e1',
            ticketTypeId: 'vip',
            quantity: 2,
            amountPaise: 0,
            afterExpiry: false,
          },
        },
      ]))
  it('refuses free tickets too when they are gone', () =>
    given([]).when(hold(1, freeOrder)).thenRefuses('conflict', NOT_ENOUGH_TICKETS))
  it.each([
    ['held', [held]],
    ['issued', paidTicket],
    ['failed', [held, failed()]],
    ['expired', [held, expired]],
    ['cancelled', [...paidTicket, cancelled()]],
  ] as const)('refuses an order that exists already (%s)', (_state, facts) =>
    given([...facts])
      .when(hold(100))
      .thenRefuses('conflict', 'This order exists already.'),
  )
})

describe('Capture', () => {
  it('refuses an order that does not exist', () =>
    given([]).when(capture(10)).thenRefuses('not-found', 'Order not found.'))
  it('captures a held order and issues its ticket', () =>
    given([held])
      .when(capture(10))
      .then([captured(), issued(false)]))
  it('issues a held order even when the type shows no seats left (its own hold counts them)', () =>
    given([held])
      .when(capture(0))
      .then([captured(), issued(false)]))
  it('does nothing for a payment it captured already', () =>
    given(paidTicket).when(capture(10)).thenNothingHappens())
  it('does nothing for a captured payment that was refunded', () =>
    given([held, expired, captured(), refundRequested('sold out after hold expired'), refunded()])
      .when(capture(10))
      .thenNothingHappens())

  describe('after the hold expired', () => {
    it('issues the ticket while the seats are still there, from a release', () =>
      given([held, expired]).when(capture(2)).then([captured(), issuedAfterRelease]))
    it('issues it from a failure after a lapse written before releases were told apart', () =>
      given([held, expiredBefore])
        .when(capture(2))
        .then([captured(), issued(true)]))
    it('refunds when the seats were sold meanwhile', () =>
      given([held, expired])
        .when(capture(1))
        .then([captured(), refundRequested('sold out after hold expired')]))
  })

  describe('after a failed attempt', () => {
    it('issues the ticket while the seats are still there', () =>
      given([held, failed()])
        .when(capture(5))
        .then([captured(), issued(true)]))
    it('refunds when the seats were sold meanwhile', () =>
      given([held, failed()])
        .when(capture(0))
        .then([captured(), refundRequested('sold out after hold expired')]))
  })

  it('refunds a second payment for an issued ticket', () =>
    given(paidTicket)
      .when(capture(10, 'pay_2'))
      .then([captured('pay_2'), refundRequested('duplicate payment', 'pay_2')]))
  it('refunds a payment for a cancelled ticket', () =>
    given([...paidTicket, cancelled(), refundRequested('cancelled')])
      .when(capture(10, 'pay_2'))
      .then([captured('pay_2'), refundRequested('duplicate payment', 'pay_2')]))
  it('refunds a second payment for a transferred ticket, leaving it with its new owner', () =>
    given([...paidTicket, transferred('asha', 'bala')])
      .when(capture(10, 'pay_2'))
      .then([captured('pay_2'), refundRequested('duplicate payment', 'pay_2')]))
})

describe('Fail', () => {
  it('releases a held order', () => given([held]).when(fail).then([failed()]))
  it('records a failure without a payment id', () =>
    given([held])
      .when({ type: 'Fail', paymentId: null, reason: 'Declined.' })
      .then([failed(null)]))
  it('does nothing to an order that does not exist', () => given([]).when(fail).thenNothingHappens())
  it.each([
    ['issued (a paid order never goes back)', paidTicket],
    ['failed already', [held, failed()]],
    ['expired', [held, expired]],
    ['cancelled', [...paidTicket, cancelled()]],
  ] as const)('does nothing to an order that is %s', (_state, facts) =>
    given([...facts])
      .when(fail)
      .thenNothingHappens(),
  )
})

describe('Expire', () => {
  it('releases a held order at its deadline, as a release (no payment failed)', () =>
    given([held]).when(expire(AT_DEADLINE)).then([expired]))
  it('releases a held order after its deadline', () =>
    given([held]).when(expire(AFTER_DEADLINE)).then([expired]))
  it('leaves a held order alone before its deadline', () =>
    given([held]).when(expire(BEFORE_DEADLINE)).thenNothingHappens())
  it('does nothing to an order that does not exist', () =>
    given([]).when(expire(AFTER_DEADLINE)).thenNothingHappens())
  it.each([
    ['issued', paidTicket],
    ['failed', [held, failed()]],
    ['expired already', [held, expired]],
    ['cancelled', [...paidTicket, cancelled()]],
  ] as const)('does nothing to an order that is %s', (_state, facts) =>
    given([...facts])
      .when(expire(AFTER_DEADLINE))
      .thenNothingHappens(),
  )
})

describe('Cancel', () => {
  it("cancels the owner's paid ticket and asks for its refund", () =>
    given(paidTicket)
      .when(cancel('asha'))
      .then([cancelled('asha'), refundRequested('cancelled')]))
  it('cancels a ticket issued after its hold expired, refunding its payment', () =>
    given([held, expired, captured(), issued(true)])
      .when(cancel('asha'))
      .then([cancelled('asha'), refundRequested('cancelled')]))
  it('refunds the payment that issued the ticket, not one refused earlier', () =>
    given([
      held,
      expired,
      captured('pay_0'),
      refundRequested('sold out after hold expired', 'pay_0'),
      captured('pay_1'),
      issuedAfterRelease,
    ])
      .when(cancel('asha'))
      .then([cancelled('asha'), refundRequested('cancelled', 'pay_1')]))
  it('cancels a free ticket without a refund', () =>
    given([
      { type: 'TicketsHeld', data: freeOrder },
      { ...issued(), data: { ...issued().data, amountPaise: 0 } } as BookingFact,
    ])
      .when(cancel('asha'))
      .then([cancelled('asha')]))
  it('lets the new owner cancel a transferred ticket; the refund goes to the original payment', () =>
    given([...paidTicket, transferred('asha', 'bala')])
      .when(cancel('bala'))
      .then([cancelled('bala'), refundRequested('cancelled')]))
  it('refuses a ticket that does not exist', () =>
    given([]).when(cancel('asha')).thenRefuses('not-found', TICKET_NOT_FOUND))
  it("refuses someone else's ticket as if it did not exist", () =>
    given(paidTicket).when(cancel('mallory')).thenRefuses('not-found', TICKET_NOT_FOUND))
  it("refuses someone else's unpaid order as if it did not exist", () =>
    given([held]).when(cancel('mallory')).thenRefuses('not-found', TICKET_NOT_FOUND))
  it('refuses the former owner of a transferred ticket', () =>
    given([...paidTicket, transferred('asha', 'bala')])
      .when(cancel('asha'))
      .thenRefuses('conflict', 'This ticket has been transferred to someone else.'))
  it('refuses a ticket cancelled already', () =>
    given([...paidTicket, cancelled(), refundRequested('cancelled')])
      .when(cancel('asha'))
      .thenRefuses('conflict', 'This ticket is already cancelled.'))
  it('lets the buyer give up an unpaid hold (checkout closed): it fails and frees the seats', () =>
    given([held])
      .when(cancel('asha'))
      .then([
        {
          type: 'PaymentFailed',
          data: { orderId: 'o1', paymentId: null, reason: 'The buyer closed the checkout.', released: true },
        },
      ]))
  it.each([
    ['failed', [held, failed()]],
    ['expired', [held, expired]],
  ] as const)('refuses an order that %s (no ticket)', (_state, facts) =>
    given([...facts])
      .when(cancel('asha'))
      .thenRefuses('conflict', 'This order was not paid, so there is no ticket.'),
  )
})

describe('Transfer', () => {
  it("moves the owner's ticket to another account", () =>
    given(paidTicket)
      .when(transfer('asha', 'bala'))
      .then([transferred('asha', 'bala')]))
  it('lets the new owner pass it on', () =>
    given([...paidTicket, transferred('asha', 'bala')])
      .when(transfer('bala', 'chitra'))
      .then([transferred('bala', 'chitra')]))
  it('lets the new owner give it back to the buyer', () =>
    given([...paidTicket, transferred('asha', 'bala')])
      .when(transfer('bala', 'asha'))
      .then([transferred('bala', 'asha')]))
  it('refuses a transfer to oneself', () =>
    given(paidTicket)
      .when(transfer('asha', 'asha'))
      .thenRefuses('invalid', 'You cannot transfer a ticket to yourself.'))
  it('refuses a ticket that does not exist', () =>
    given([]).when(transfer('asha', 'bala')).thenRefuses('not-found', TICKET_NOT_FOUND))
  it("refuses someone else's ticket as if it did not exist", () =>
    given(paidTicket).when(transfer('mallory', 'mallory2')).thenRefuses('not-found', TICKET_NOT_FOUND))
  it('refuses the former owner', () =>
    given([...paidTicket, transferred('asha', 'bala')])
      .when(transfer('asha', 'chitra'))
      .thenRefuses('conflict', 'This ticket has been transferred to someone else.'))
  it('refuses a cancelled ticket', () =>
    given([...paidTicket, cancelled()])
      .when(transfer('asha', 'bala'))
      .thenRefuses('conflict', 'This ticket is already cancelled.'))
  it('refuses an unpaid order', () =>
    given([held]).when(transfer('asha', 'bala')).thenRefuses('conflict', 'This order is not paid yet.'))
  it.each([
    ['failed', [held, failed()]],
    ['expired', [held, expired]],
  ] as const)('refuses an order that %s', (_state, facts) =>
    given([...facts])
      .when(transfer('asha', 'bala'))
      .thenRefuses('conflict', 'This order was not paid, so there is no ticket.'),
  )
})

describe('RecordRefund', () => {
  it('records the refund of a cancelled ticket', () =>
    given([...paidTicket, cancelled(), refundRequested('cancelled')])
      .when(recordRefund())
      .then([refunded()]))
  it('records the refund of a payment that came after the seats were sold', () =>
    given([held, expired, captured(), refundRequested('sold out after hold expired')])
      .when(recordRefund())
      .then([refunded()]))
  it('records the refund of a duplicate payment', () =>
    given([...paidTicket, captured('pay_2'), refundRequested('duplicate payment', 'pay_2')])
      .when(recordRefund('pay_2', 'rfnd_2'))
      .then([refunded('pay_2', 'rfnd_2')]))
  it('records a refund once', () =>
    given([...paidTicket, cancelled(), refundRequested('cancelled'), refunded()])
      .when(recordRefund('pay_1', 'rfnd_again'))
      .thenNothingHappens())
  it('ignores a refund nobody asked for', () => given(paidTicket).when(recordRefund()).thenNothingHappens())
  it('ignores a refund for another payment than the one to refund', () =>
    given([...paidTicket, cancelled(), refundRequested('cancelled')])
      .when(recordRefund('pay_other'))
      .thenNothingHappens())
  it('ignores an order that does not exist', () => given([]).when(recordRefund()).thenNothingHappens())
})

describe('evolve', () => {
  const state = (facts: BookingFact[]) => fold(orderDecider, facts)
  it('starts with no order', () =>
    expect(state([])).toEqual({
      status: 'none',
      order: null,
      ownerId: null,
      formerOwners: [],
      captured: [],
      refundsRequested: [],
      refunded: [],
      passVersion: 0,
      admitted: {},
      scans: {},
      doubleEntries: 0,
      lapse: null,
      invoices: {},
      credited: {},
    }))
  it('follows a ticket through payment, transfer, cancel and refund', () =>
    expect(
      state([
        ...paidTicket,
        transferred('asha', 'bala'),
        cancelled('bala'),
        refundRequested('cancelled'),
        refunded(),
      ]),
    ).toEqual({
      status: 'cancelled',
      order,
      ownerId: 'bala',
      formerOwners: ['asha'],
      captured: ['pay_1'],
      refundsRequested: ['pay_1'],
      refunded: ['pay_1'],
      passVersion: 1,
      admitted: {},
      scans: {},
      doubleEntries: 0,
      lapse: null,
      invoices: {},
      credited: {},
    }))
  it.each([
    ['held', [held]],
    ['failed', [held, failed()]],
    ['expired', [held, expired]],
    ['issued', [held, expired, captured(), issued(true)]],
  ] as const)('reaches %s', (status, facts) => expect(state([...facts]).status).toBe(status))
})

// issue 11: the limits a hold is judged under, releases by a new checkout, the cancellation cutoff
const checks = (over: Partial<HoldChecks> = {}): HoldChecks => ({
  now: '2030-01-01T10:00:00.000Z',
  salesCloseAt: '2030-01-02T12:30:00.000Z',
  heldFromAddress: 0,
  maxHeldFromAddress: 20,
  issuedToBuyer: 0,
  maxTicketsPerAccount: 10,
  ...over,
})
const holdUnder = (over: Partial<HoldChecks>, data = order): OrderCommand => ({
  type: 'Hold',
  order: data,
  available: 100,
  checks: checks(over),
})

describe('Hold, under its limits', () => {
  it('holds while sales are open and the caps leave room', () =>
    given([])
      .when(holdUnder({ heldFromAddress: 18 }))
      .then([held]))
  it('refuses once sales have closed (the event started, or its sales ended)', () =>
    given([])
      .when(holdUnder({ now: '2030-01-02T12:30:00.000Z' }))
      .thenRefuses('conflict', SALES_CLOSED))
  it('refuses when the seats would pass the cap of unpaid seats from one address', () =>
    given([])
      .when(holdUnder({ heldFromAddress: 19 }))
      .thenRefuses(
        'rate-limited',
        'Too many seats of this event are held unpaid from your network right now. Please pay for or close an open checkout first.',
      ))
  it('refuses free tickets past the cap per account, saying how many are left', () =>
    given([])
      .when(holdUnder({ issuedToBuyer: 9 }, freeOrder))
      .thenRefuses('conflict', 'You can have at most 10 free tickets for this event; you can book 1 more.'))
  it('does not apply the free cap to paid tickets', () =>
    given([])
      .when(holdUnder({ issuedToBuyer: 50 }))
      .then([held]))
  it('holds and issues free tickets up to the cap exactly', () =>
    given([])
      .when(holdUnder({ issuedToBuyer: 8 }, freeOrder))
      .then([
        { type: 'TicketsHeld', data: freeOrder },
        { type: 'TicketsIssued', data: { ...issuedData, amountPaise: 0 } },
      ]))
  it('refuses free tickets to a buyer who has them all', () =>
    given([])
      .when(holdUnder({ issuedToBuyer: 10 }, freeOrder))
      .thenRefuses('conflict', 'You can have at most 10 free tickets for this event, and you have them all.'))
  it('refuses after sales have closed, not only at the moment they close', () =>
    given([])
      .when(holdUnder({ now: '2030-01-03T00:00:00.000Z' }))
      .thenRefuses('conflict', SALES_CLOSED))
})

describe('Release (a new checkout for the same event)', () => {
  const release = (by: string): OrderCommand => ({ type: 'Release', by, reason: REPLACED_BY_NEW_CHECKOUT })
  it("gives the buyer's unpaid seats back", () =>
    given([held])
      .when(release('asha'))
      .then([
        {
          type: 'PaymentFailed',
          data: { orderId: 'o1', paymentId: null, reason: REPLACED_BY_NEW_CHECKOUT, released: true },
        },
      ]))
  it('leaves a paid ticket alone', () => given(paidTicket).when(release('asha')).thenNothingHappens())
  it("leaves someone else's hold alone", () => given([held]).when(release('bala')).thenNothingHappens())
  it('leaves an order that does not exist alone', () => given([]).when(release('asha')).thenNothingHappens())
  it.each([
    ['failed', [held, failed()]],
    ['expired', [held, expired]],
  ] as const)('leaves an order that %s already alone', (_state, facts) =>
    given([...facts])
      .when(release('asha'))
      .thenNothingHappens(),
  )
})

describe('Cancel, near the event', () => {
  const cutoff = { at: '2030-01-01T12:00:00.000Z', hours: 24 }
  const cancelAt = (now: string): OrderCommand => ({ type: 'Cancel', by: 'asha', now, cutoff })
  it('cancels before the cutoff', () =>
    given(paidTicket)
      .when(cancelAt('2030-01-01T11:59:59.999Z'))
      .then([cancelled(), refundRequested('cancelled')]))
  it('refuses from the cutoff on', () =>
    given(paidTicket)
      .when(cancelAt('2030-01-01T12:00:00.000Z'))
      .thenRefuses(
        'conflict',
        'This ticket can no longer be cancelled: cancellation closes 24 hours before the event starts.',
      ))
  it('still lets the buyer give up an unpaid hold after the cutoff', () =>
    given([held])
      .when(cancelAt('2030-01-01T13:00:00.000Z'))
      .then([
        {
          type: 'PaymentFailed',
          data: { orderId: 'o1', paymentId: null, reason: 'The buyer closed the checkout.', released: true },
        },
      ]))
})

describe('Transfer to an e-mail with no account', () => {
  const toNobody = (by: string): OrderCommand => ({ type: 'Transfer', by, toId: null })
  it('tells the owner', () =>
    given(paidTicket).when(toNobody('asha')).thenRefuses('not-found', NO_SUCH_RECIPIENT))
  it('tells a stranger only that the ticket is not found', () =>
    given(paidTicket).when(toNobody('mallory')).thenRefuses('not-found', TICKET_NOT_FOUND))
  it('tells the former owner only that the ticket went to someone else', () =>
    given([...paidTicket, transferred('asha', 'bala')])
      .when(toNobody('asha'))
      .thenRefuses('conflict', 'This ticket has been transferred to someone else.'))
})

// issue 16: a pass scanned at the door, decided on its ticket's stream
describe('Admit', () => {
  const NOW = '2031-03-15T18:30:00.000Z'
  const scan = (over: Partial<PassScan> = {}): PassScan => ({
    scanId: 'scan-1',
    eventId: 'e1',
    admission: 1,
    version: 0,
    device: 'door-a',
    scannedAt: '2031-03-15T18:29:00.000Z',
    ...over,
  })
  /** the door opened at 16:30, two hours before the start */
  const OPENS = '2031-03-15T16:30:00.000Z'
  const admit = (over: Partial<PassScan> = {}, now = NOW, opensAt = OPENS): OrderCommand => ({
    type: 'Admit',
    scan: scan(over),
    door: { now, opensAt },
  })
  const admitted = (over: Partial<PassAdmitted['data']> = {}): BookingFact => ({
    type: 'PassAdmitted',
    data: {
      orderId: 'o1',
      eventId: 'e1',
      ticketTypeId: 'vip',
      admission: 1,
      version: 0,
      scanId: 'scan-1',
      device: 'door-a',
      scannedAt: '2031-03-15T18:29:00.000Z',
      admittedAt: '2031-03-15T18:29:00.000Z',
      ...over,
    },
  })
  const refused = (over: Partial<PassScanRefused['data']> = {}): BookingFact => ({
    type: 'PassScanRefused',
    data: {
      orderId: 'o1',
      eventId: 'e1',
      admission: 1,
      version: 0,
      scanId: 'scan-2',
      device: 'door-b',
      scannedAt: '2031-03-15T18:29:30.000Z',
      reason: 'already-admitted',
      firstAdmittedAt: '2031-03-15T18:29:00.000Z',
      firstDevice: 'door-a',
      ...over,
    },
  })
  const verdict = (facts: BookingFact[], over: Partial<PassScan> = {}, door = { now: NOW, opensAt: OPENS }) =>
    scanVerdict(fold(orderDecider, facts), scan(over), door)

  it('admits a valid pass of an issued ticket', () => given(paidTicket).when(admit()).then([admitted()]))
  it('counts the admission at the door’s time, never later than now', () =>
    given(paidTicket)
      .when(admit({ scannedAt: '2031-03-15T19:00:00.000Z' }))
      .then([admitted({ scannedAt: '2031-03-15T19:00:00.000Z', admittedAt: NOW })]))
  it('admits each admission of a ticket once', () =>
    given([...paidTicket, admitted()])
      .when(admit({ admission: 2, scanId: 'scan-3' }))
      .then([admitted({ admission: 2, scanId: 'scan-3' })]))
  it('records a second scan of an admitted admission as a double entry', () =>
    given([...paidTicket, admitted()])
      .when(admit({ scanId: 'scan-2', device: 'door-b', scannedAt: '2031-03-15T18:29:30.000Z' }))
      .then([refused()]))
  it('decides nothing for a scan it decided before (a retried sync)', () => {
    given([...paidTicket, admitted()])
      .when(admit())
      .thenNothingHappens()
    given([...paidTicket, admitted(), refused()])
      .when(admit({ scanId: 'scan-2', device: 'door-b', scannedAt: '2031-03-15T18:29:30.000Z' }))
      .thenNothingHappens()
  })
  it('records nothing for a void or invalid pass', () => {
    given([...paidTicket, cancelled()])
      .when(admit())
      .thenNothingHappens()
    given([...paidTicket, transferred('asha', 'bala')])
      .when(admit())
      .thenNothingHappens()
    given([held]).when(admit()).thenNothingHappens()
    given([]).when(admit()).thenNothingHappens()
    given(paidTicket)
      .when(admit({ admission: 3 }))
      .thenNothingHappens()
  })
  it('records nothing for a scan before the door opened, by the door’s clock or the server’s', () => {
    given(paidTicket)
      .when(admit({ scannedAt: '2031-03-15T16:29:59.999Z' }))
      .thenNothingHappens()
    // a door whose clock is ahead is not believed
    given(paidTicket)
      .when(admit({ scannedAt: '2031-03-15T18:00:00.000Z' }, '2031-03-15T16:00:00.000Z'))
      .thenNothingHappens()
    given(paidTicket)
      .when(admit({ scannedAt: OPENS }))
      .then([admitted({ scannedAt: OPENS, admittedAt: OPENS })])
  })
  it('admits the new version of a transferred ticket', () =>
    given([...paidTicket, transferred('asha', 'bala')])
      .when(admit({ version: 1 }))
      .then([admitted({ version: 1 })]))
  it('keeps an admission admitted across a transfer', () =>
    given([...paidTicket, admitted(), transferred('asha', 'bala')])
      .when(admit({ version: 1, scanId: 'scan-2', device: 'door-b', scannedAt: '2031-03-15T18:29:30.000Z' }))
      .then([refused({ version: 1 })]))

  describe('the answer', () => {
    it('admitted, with when', () =>
      expect(verdict([...paidTicket, admitted()])).toEqual({
        result: 'admitted',
        admittedAt: '2031-03-15T18:29:00.000Z',
        known: true,
      }))
    it('already-admitted, with the first admission’s time', () =>
      expect(verdict([...paidTicket, admitted()], { scanId: 'scan-9' })).toEqual({
        result: 'already-admitted',
        admittedAt: '2031-03-15T18:29:00.000Z',
        known: false,
      }))
    it('void after a cancel, after a transfer (the old code), and before payment', () => {
      expect(verdict([...paidTicket, cancelled()]).result).toBe('void')
      expect(verdict([...paidTicket, transferred('asha', 'bala')]).result).toBe('void')
      expect(verdict([held]).result).toBe('void')
      expect(verdict([held, failed()]).result).toBe('void')
    })
    it('too-early before the door opens, whatever the ticket; a scan decided before keeps its answer', () => {
      const early = { scannedAt: '2031-03-15T12:00:00.000Z', scanId: 'scan-9' }
      expect(verdict(paidTicket, early)).toEqual({ result: 'too-early', admittedAt: null, known: false })
      expect(verdict([...paidTicket, cancelled()], early).result).toBe('too-early')
      // the event moved a day later after its admission: the scan that admitted is still answered so
      expect(
        verdict([...paidTicket, admitted()], {}, { now: NOW, opensAt: '2031-03-16T16:30:00.000Z' }).result,
      ).toBe('admitted')
    })
    it('the same answer to the same scan after a transfer voided its code', () =>
      expect(verdict([...paidTicket, admitted(), transferred('asha', 'bala')]).result).toBe('admitted'))
    it('invalid for a ticket that does not exist, another event, an admission or version it never had', () => {
      expect(verdict([]).result).toBe('invalid')
      expect(verdict(paidTicket, { eventId: 'e2' }).result).toBe('invalid')
      expect(verdict(paidTicket, { admission: 3 }).result).toBe('invalid')
      expect(verdict(paidTicket, { version: 1 }).result).toBe('invalid')
    })
  })
})

describe('Capture of an order with a promo code, after its hold lapsed (its use given back)', () => {
  const withCode: TicketsHeld['data'] = {
    ...order,
    promoCode: 'ONCE',
    discountPaise: 29_980,
    amountPaise: 269_820,
  }
  const heldWithCode: BookingFact = { type: 'TicketsHeld', data: withCode }
  const terms = (over: Partial<PromoTerms> = {}): PromoTerms => ({
    code: 'ONCE',
    percentOff: 10,
    amountOffPaise: null,
    ticketTypeIds: null,
    maxUses: 1,
    startsAt: null,
    endsAt: null,
    disabled: false,
    held: 0,
    paid: 0,
    ...over,
  })
  const payLate = (promo: PromoTerms | null, available = 10): OrderCommand => ({
    ...(capture(available) as Extract<OrderCommand, { type: 'Capture' }>),
    promo,
    now: BEFORE_DEADLINE,
  })
  const refundedFor = (promoRefusal: string): BookingFact => ({
    type: 'RefundRequested',
    data: {
      orderId: 'o1',
      paymentId: 'pay_1',
      amountPaise: 299800,
      reason: 'promo code no longer valid',
      promoRefusal,
    },
  })
  const issuedWithCode: BookingFact = {
    type: 'TicketsIssued',
    data: { ...issuedData, amountPaise: 269_820, afterExpiry: true, fromReleased: true },
  }

  it('issues it at the code’s price while the code has a use left', () =>
    given([heldWithCode, expired]).when(payLate(terms())).then([captured(), issuedWithCode]))
  it('refunds it, saying why, when the code is used up by now', () =>
    given([heldWithCode, expired])
      .when(payLate(terms({ paid: 1 })))
      .then([captured(), refundedFor(PROMO_USED_UP)]))
  it('refunds it when another order holds the code’s last use', () =>
    given([heldWithCode, { ...failed(null), data: { ...failed(null).data, released: true } } as BookingFact])
      .when(payLate(terms({ held: 1 })))
      .then([captured(), refundedFor(PROMO_USED_UP)]))
  it('refunds it when the code was disabled meanwhile', () =>
    given([heldWithCode, expired])
      .when(payLate(terms({ disabled: true })))
      .then([captured(), refundedFor(PROMO_DISABLED)]))
  it('issues a live hold’s payment whatever the code says now (its use is held)', () =>
    given([heldWithCode])
      .when(payLate(terms({ held: 1, disabled: true })))
      .then([
        captured(),
        { type: 'TicketsIssued', data: { ...issuedData, amountPaise: 269_820 } } as BookingFact,
      ]))
})

describe('Cancel of a ticket let in at the door', () => {
  const admittedOnce: BookingFact = {
    type: 'PassAdmitted',
    data: {
      orderId: 'o1',
      eventId: 'e1',
      ticketTypeId: 'vip',
      admission: 2,
      version: 0,
      scanId: 'scan-1',
      device: 'door-a',
      scannedAt: '2031-03-15T18:29:00.000Z',
      admittedAt: '2031-03-15T18:29:00.000Z',
    },
  }
  it('is refused to its owner, saying why', () =>
    given([...paidTicket, admittedOnce])
      .when(cancel('asha'))
      .thenRefuses('conflict', USED_AT_DOOR))
  it('is still a not-found to a stranger', () =>
    given([...paidTicket, admittedOnce])
      .when(cancel('mallory'))
      .thenRefuses('not-found', TICKET_NOT_FOUND))

  describe('Refund by the organizer', () => {
    const refund = (reason = 'Rain.'): OrderCommand => ({ type: 'Refund', by: 'org1', reason })
    const cancelledByOrganizer = (ownerId = 'asha'): BookingFact => ({
      type: 'TicketCancelled',
      data: {
        orderId: 'o1',
        ownerId,
        eventId: 'e1',
        ticketTypeId: 'vip',
        quantity: 2,
        refundedBy: { by: 'org1', reason: 'Rain.' },
      },
    })
    it('cancels an admitted ticket and refunds its payment', () =>
      given([...paidTicket, admittedOnce])
        .when(refund())
        .then([cancelledByOrganizer(), refundRequested('refunded by organizer')]))
    it('cancels a ticket not used yet, held by whoever holds it now', () =>
      given([...paidTicket, transferred('asha', 'bala')])
        .when(refund())
        .then([cancelledByOrganizer('bala'), refundRequested('refunded by organizer')]))
    it('refuses a ticket cancelled already', () =>
      given([...paidTicket, cancelled()])
        .when(refund())
        .thenRefuses('conflict', 'This ticket is already cancelled.'))
    it('refuses an unpaid order', () =>
      given([held]).when(refund()).thenRefuses('conflict', 'This order is not paid yet.'))
    it('refuses an order that does not exist', () =>
      given([]).when(refund()).thenRefuses('not-found', TICKET_NOT_FOUND))
  })
})

describe('what the figures are told of an unpaid order given up', () => {
  it('a payment the provider refused is a failure (no released)', () =>
    given([held]).when(fail).then([failed()]))
  it('a lapse after a failure is issued from the failure', () =>
    given([held, failed()])
      .when(capture(5))
      .then([captured(), issued(true)]))
  it('a lapse after a checkout was closed is issued from the release', () =>
    given([
      held,
      { type: 'PaymentFailed', data: { orderId: 'o1', paymentId: null, reason: 'x', released: true } },
    ])
      .when(capture(5))
      .then([captured(), issuedAfterRelease]))
})

describe('invoices and credit notes (issue 42)', () => {
  const tax = {
    ratePercent: 18,
    pricesIncludeTax: false,
    supplierState: '27',
    placeOfSupply: '27',
    gstin: 'G',
  }
  // ₹1,499 × 2 with 18% added on top
  const taxed: TicketsHeld['data'] = { ...order, tax, amountPaise: 353_764 }
  const parties = {
    supplier: { legalName: 'Rangmanch LLP', gstin: 'G', address: 'Pune', state: '27' },
    buyer: { name: 'Asha', email: 'asha@example.com' },
    event: { _id: 'e1', title: 'Jazz', date: '2030-01-02' },
  }
  const number = (seq: number, series: 'invoice' | 'credit-note' = 'invoice') => ({
    supplierId: 'org1',
    series,
    fy: '2930',
    seq,
    number: `RM2930${series === 'invoice' ? '/' : 'C'}${String(seq).padStart(6, '0')}`,
  })
  const payTaxed = (draws?: unknown): OrderCommand => ({
    type: 'Capture',
    paymentId: 'pay_1',
    amountPaise: 353_764,
    method: 'card',
    available: 10,
    ...(draws ? { invoices: draws as never } : {}),
  })
  const invoiceFact = (seq: number): BookingFact => {
    const facts = orderDecider.decide(
      payTaxed({ day: '2030-01-01', tickets: { number: number(seq), parties } }),
      fold(orderDecider, [{ type: 'TicketsHeld', data: taxed }]),
    )
    return facts[2] as BookingFact
  }

  it('issues the invoice with the ticket, numbered as drawn', () => {
    const facts = orderDecider.decide(
      payTaxed({ day: '2030-01-01', tickets: { number: number(7), parties } }),
      fold(orderDecider, [{ type: 'TicketsHeld', data: taxed }]),
    )
    expect(facts.map((f) => f.type)).toEqual(['PaymentCaptured', 'TicketsIssued', 'InvoiceIssued'])
    expect(facts[2]).toMatchObject({
      type: 'InvoiceIssued',
      data: {
        of: 'tickets',
        seq: 7,
        number: 'RM2930/000007',
        buyerId: 'asha',
        document: {
          kind: 'tax-invoice',
          totals: { taxableValue: 299_800, cgst: 26_982, sgst: 26_982, total: 353_764 },
        },
      },
    })
  })

  it('takes no number for a payment that issues nothing, nor for an order priced before a profile', () => {
    const paidTwice = orderDecider.decide(
      {
        ...payTaxed({ day: '2030-01-01', tickets: { number: number(8), parties } }),
        paymentId: 'pay_2',
      } as OrderCommand,
      fold(orderDecider, [{ type: 'TicketsHeld', data: taxed }, captured(), issued(), invoiceFact(7)]),
    )
    expect(paidTwice.map((f) => f.type)).toEqual(['PaymentCaptured', 'RefundRequested'])
    const untaxed = orderDecider.decide(payTaxed(), fold(orderDecider, [held]))
    expect(untaxed.map((f) => f.type)).toEqual(['PaymentCaptured', 'TicketsIssued'])
  })

  it('credits the invoice once, with the refund of a cancel', () => {
    const history = [
      { type: 'TicketsHeld', data: taxed } as BookingFact,
      captured(),
      issued(),
      invoiceFact(7),
    ]
    const facts = orderDecider.decide(
      { type: 'Cancel', by: 'asha', creditNotes: { day: '2030-01-01', tickets: number(1, 'credit-note') } },
      fold(orderDecider, history),
    )
    expect(facts.map((f) => f.type)).toEqual(['TicketCancelled', 'RefundRequested', 'CreditNoteIssued'])
    expect(facts[2]).toMatchObject({
      data: { number: 'RM2930C000001', document: { kind: 'credit-note', against: 'RM2930/000007' } },
    })
  })

  it('refuses a hold whose amount is not what its terms make', () => {
    expect(() =>
      orderDecider.decide(hold(10, { ...taxed, amountPaise: 299_800 }), fold(orderDecider, [])),
    ).toThrow(/not what its terms make/)
  })
})
