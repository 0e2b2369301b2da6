// Pure decisions about one order (and the ticket it becomes once paid).
import { SEATS_TAKEN } from '../../contracts/seating.ts'
import {
  creditNote,
  type DocumentNumber,
  type DocumentParties,
  feeInvoice,
  type StoredDocument,
  ticketsInvoice,
} from '../billing/documents.ts'
import { orderMoney } from '../billing/tax.ts'
import { conflict, invalid, notFound, rateLimited, seatsConflict } from '../errors.ts'
import type { Decider } from '../ledger/decider.ts'
import type {
  BookingFact,
  DocumentOf,
  InvoiceIssued,
  PassAdmitted,
  PassScanRefused,
  RefundReason,
  TicketsHeld,
} from './facts.ts'
import { discountPaise, type PromoTerms, promoRefusal } from './promo.ts'
import type { OrderStatus } from './statuses.ts'

/** An admission of the ticket let in: when, and by which door device first. */
export type Admission = { admittedAt: string; device: string }

export type OrderState = {
  status: OrderStatus
  order: TicketsHeld['data'] | null
  ownerId: string | null
  formerOwners: string[]
  captured: string[]
  refundsRequested: string[]
  refunded: string[]
  /** the version of the ticket's passes: one more per transfer (each voids the codes before it) */
  passVersion: number
  /** the admissions let in, by admission number (1..quantity), whatever the version since */
  admitted: Readonly<Record<string, Admission>>
  /** the scans decided with a fact, by scanId, and their answer: the same scan again gets it again */
  scans: Readonly<Record<string, 'admitted' | 'already-admitted'>>
  /** the double entries recorded (PassScanRefused): past DOUBLE_ENTRIES_RECORDED, no more are */
  doubleEntries: number
  /** how the figures counted the order's last lapse (failed or expired): a refused payment, or a
   * checkout released unpaid; null while it has not lapsed */
  lapse: 'failed' | 'released' | null
  /** its invoices (issue 42): the organizer's for the tickets, the platform's for the fee */
  invoices: Readonly<Partial<Record<DocumentOf, StoredDocument>>>
  /** the invoices a credit note was issued against */
  credited: Readonly<Partial<Record<DocumentOf, true>>>
}

/**
 * The numbers drawn for the invoices a payment may issue (issue 42), each the next of its
 * supplier's series read under that supplier's lock, with who the document names; a number the
 * decision does not use is not taken (the series is read from the documents issued).
 */
export type InvoiceDraws = {
  /** the day of issue, YYYY-MM-DD in the platform's time zone */
  day: string
  tickets?: { number: DocumentNumber; parties: DocumentParties }
  fee?: { number: DocumentNumber; parties: DocumentParties }
}

/** The numbers drawn for the credit notes a refund may issue, against the order's invoices. */
export type CreditNoteDraws = { day: string; tickets?: DocumentNumber; fee?: DocumentNumber }

/**
 * The double entries of one ticket kept as facts (the organizer's list, the activity feed). Past
 * them a scan of an admission let in is still answered already-admitted, the same each time it is
 * sent, but adds nothing: every decision on the ticket reads its whole stream, and a door account
 * sending the same codes from ever new devices grew it without end (500 scans a request took
 * minutes by the third request, the whole server waiting).
 */
export const DOUBLE_ENTRIES_RECORDED = 50

/** A pass scanned at the door, its code already verified as signed by us for this event. */
export type PassScan = {
  scanId: string
  eventId: string
  admission: number
  version: number
  device: string
  /** ISO, the door's clock */
  scannedAt: string
}

/** When a scan is decided: the server's time now, and when the event's door opens (ISO both). */
export type DoorClock = { now: string; opensAt: string }

/** What the ledger answers a scan of a genuine code (the code's own checks come before). */
export type ScanVerdict = {
  result: 'admitted' | 'already-admitted' | 'void' | 'invalid' | 'too-early'
  /** when this admission was first let in; null if never */
  admittedAt: string | null
  /** the answer was given to this very scan before (it is sent again: nothing new is decided) */
  known: boolean
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
  /** the order's promo code as read under the lock, its terms and uses (null: none such) */
  promo?: PromoTerms | null
  /** the event is called off (issue 17) */
  eventCancelled?: boolean
}

/** When a ticket may still be cancelled with its refund: until `at`, `hours` before the start. */
export type CancelCutoff = { at: string; hours: number }

export type OrderCommand =
  | {
      type: 'Hold'
      order: TicketsHeld['data']
      available: number
      checks?: HoldChecks
      /** a seated order: those of its seats not free now, read under the lock (issue 40) */
      seatsTaken?: readonly string[]
    }
  | {
      type: 'Capture'
      paymentId: string
      /** what the provider says was paid */
      amountPaise: number
      method: string | null
      /** seats of the ticket type free right now, in case the hold has lapsed */
      available: number
      /** a seated order's seats that are not free now (taken by another since its hold lapsed) */
      seatsTaken?: readonly string[]
      /** an order by count whose type a seat map has made seated since its hold lapsed (issue 40) */
      seatedNow?: boolean
      /** the event is called off: the payment is refunded, whatever the order's state */
      eventCancelled?: boolean
      /**
       * the order's promo code as read under the lock (null: none such), for an order that has one:
       * a payment after the hold lapsed (its use given back) is decided again against it at `now`
       */
      promo?: PromoTerms | null
      now?: string
      /** the numbers for the invoices the ticket's issue takes (issue 42) */
      invoices?: InvoiceDraws
    }
  | { type: 'Fail'; paymentId: string | null; reason: string }
  | { type: 'Expire'; now: string }
  /** an unpaid hold given up by its buyer (a new checkout for the same event replaces it) */
  | { type: 'Release'; by: string; reason: string }
  | { type: 'Cancel'; by: string; now?: string; cutoff?: CancelCutoff | null; creditNotes?: CreditNoteDraws }
  /** the event's organizer (or an admin) refunds a ticket on purpose, let in at the door or not */
  | { type: 'Refund'; by: string; reason: string; creditNotes?: CreditNoteDraws }
  /** the event is called off: a hold is released, a ticket cancelled and refunded in full */
  | { type: 'CancelForEvent'; reason: string; creditNotes?: CreditNoteDraws }
  /** toId: the recipient's account, null when no account has the e-mail given */
  | { type: 'Transfer'; by: string; toId: string | null }
  | { type: 'RecordRefund'; paymentId: string; refundId: string }
  /** a pass of this ticket scanned at the door */
  | { type: 'Admit'; scan: PassScan; door: DoorClock }

/** a seated order's seat ids, as TicketsIssued carries them (nothing for a counted one) */
const seatIdsOf = (order: TicketsHeld['data']) => (order.seats ? { seats: order.seats.map((s) => s.id) } : {})

export const NOT_ENOUGH_TICKETS = 'Not enough tickets available.'
export const TICKET_NOT_FOUND = 'Ticket not found.'
export const SALES_CLOSED = 'Booking for this event has closed.'
export const EVENT_CALLED_OFF = 'This event has been cancelled.'
export const NO_SUCH_RECIPIENT = 'No account found with that email.'
export const REPLACED_BY_NEW_CHECKOUT = 'Replaced by a new checkout for the same event.'
export const USED_AT_DOOR =
  'This ticket has been used at the door, so it can no longer be cancelled. Please ask the organizer.'
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
    passVersion: 0,
    admitted: {},
    scans: {},
    doubleEntries: 0,
    lapse: null,
    invoices: {},
    credited: {},
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
        return { ...state, status: 'failed', lapse: fact.data.released ? 'released' : 'failed' }
      case 'HoldExpired':
        return { ...state, status: 'expired', lapse: fact.data.released ? 'released' : 'failed' }
      case 'TicketCancelled':
        return { ...state, status: 'cancelled' }
      case 'TicketTransferred':
        return {
          ...state,
          ownerId: fact.data.toId,
          formerOwners: [...state.formerOwners, fact.data.fromId],
          passVersion: state.passVersion + 1,
        }
      case 'RefundRequested':
        return { ...state, refundsRequested: [...state.refundsRequested, fact.data.paymentId] }
      case 'PaymentRefunded':
        return { ...state, refunded: [...state.refunded, fact.data.paymentId] }
      case 'PassAdmitted': {
        const { admission, admittedAt, device, scanId } = fact.data
        return {
          ...state,
          admitted: { ...state.admitted, [admission]: { admittedAt, device } },
          scans: { ...state.scans, [scanId]: 'admitted' },
        }
      }
      case 'PassScanRefused':
        return {
          ...state,
          scans: { ...state.scans, [fact.data.scanId]: 'already-admitted' },
          doubleEntries: state.doubleEntries + 1,
        }
      case 'InvoiceIssued':
        return { ...state, invoices: { ...state.invoices, [fact.data.of]: fact.data.document } }
      case 'CreditNoteIssued':
        return { ...state, credited: { ...state.credited, [fact.data.of]: true } }
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
        if (checks?.eventCancelled) throw conflict(EVENT_CALLED_OFF)
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
        if (order.promoCode && checks) {
          // decided again under the lock: of many orders at once, only maxUses get the code
          const refusal = promoRefusal(checks.promo ?? null, order.ticketTypeId, checks.now)
          if (refusal) throw invalid(refusal, [{ field: 'promoCode', message: refusal }])
          const discount = discountPaise(checks.promo as PromoTerms, order.unitPricePaise, order.quantity)
          if (discount !== order.discountPaise)
            throw conflict('The promo code changed while this order was placed; please try again.')
        }
        // what the buyer is asked for is the order's price, taxes and fee as its terms make them
        if (order.amountPaise !== orderMoney(order).total)
          throw new Error(`order ${order.orderId} asks ${order.amountPaise} paise, not what its terms make`)
        // a seat is never held twice: each one named must be free, read under the event's lock
        if (command.seatsTaken && command.seatsTaken.length > 0)
          throw seatsConflict(SEATS_TAKEN, [...command.seatsTaken])
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
              ...seatIdsOf(order),
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
        const refund = (
          reason: Exclude<RefundReason, 'cancelled' | 'refunded by organizer'>,
          promoRefusal?: string,
        ): BookingFact => ({
          type: 'RefundRequested',
          data: {
            orderId,
            paymentId: command.paymentId,
            amountPaise: command.amountPaise,
            reason,
            ...(promoRefusal ? { promoRefusal } : {}),
          },
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
            ...(afterExpiry && state.lapse === 'released' ? { fromReleased: true } : {}),
            ...seatIdsOf(order),
          },
        })
        const invoiced = () => invoicesOf(state, order, command.invoices)
        // An event called off sells nothing more: the payment goes back (once: captured above).
        if (command.eventCancelled && state.status !== 'issued') return [captured, refund('event cancelled')]
        switch (state.status) {
          case 'held':
            return [captured, issue(false), ...invoiced()]
          case 'failed':
          case 'expired': {
            // Paid after the hold lapsed, which gave its promo code's use back: the code is asked
            // again as it is now, so a code is never paid for more often than its maxUses.
            if (order.promoCode) {
              if (command.promo === undefined || command.now === undefined)
                throw new Error(`the promo code of order ${orderId} was not read for its payment`)
              const refusal = promoRefusal(command.promo, order.ticketTypeId, command.now)
              if (refusal) return [captured, refund('promo code no longer valid', refusal)]
            }
            // Honoured while the seats are still there (a seated order's very seats).
            if (order.seats && (command.seatsTaken?.length ?? 0) > 0)
              return [captured, refund('sold out after hold expired')]
            // by count on a type that has become seated: no seat is its to sell
            if (!order.seats && command.seatedNow) return [captured, refund('sold out after hold expired')]
            return command.available >= order.quantity
              ? [captured, issue(true), ...invoiced()]
              : [captured, refund('sold out after hold expired')]
          }
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
        // the provider refused a payment: a failed payment in the figures (no `released`)
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
        return [{ type: 'HoldExpired', data: { orderId: state.order.orderId, released: true } }]
      }
      case 'Release': {
        if (state.status !== 'held' || state.order?.buyerId !== command.by) return []
        return [
          {
            type: 'PaymentFailed',
            data: { orderId: state.order.orderId, paymentId: null, reason: command.reason, released: true },
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
                released: true,
              },
            },
          ]
        }
        const order = ownedTicket(state, command.by)
        // a ticket used at the door is not given back by its holder; its organizer may refund it
        if (Object.keys(state.admitted).length > 0) throw conflict(USED_AT_DOOR)
        const cutoff = command.cutoff
        if (cutoff && command.now && command.now >= cutoff.at) {
          throw conflict(
            `This ticket can no longer be cancelled: cancellation closes ${cutoff.hours} hours before the event starts.`,
          )
        }
        const paymentId = ticketPayment(state)
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
          facts.push(...creditNotesOf(state, order, command.creditNotes))
        }
        return facts
      }
      case 'CancelForEvent': {
        const order = state.order
        if (!order) return []
        if (state.status === 'held') {
          return [
            {
              type: 'PaymentFailed',
              data: {
                orderId: order.orderId,
                paymentId: null,
                reason: 'The event was cancelled.',
                released: true,
              },
            },
          ]
        }
        if (state.status !== 'issued' || !state.ownerId) return []
        const facts: BookingFact[] = [
          {
            type: 'TicketCancelled',
            data: {
              orderId: order.orderId,
              ownerId: state.ownerId,
              eventId: order.eventId,
              ticketTypeId: order.ticketTypeId,
              quantity: order.quantity,
              eventCancelled: { reason: command.reason },
            },
          },
        ]
        // every payment kept for this order goes back: the ticket's, and any not refunded yet
        const paymentId = ticketPayment(state)
        if (paymentId && order.amountPaise > 0) {
          facts.push({
            type: 'RefundRequested',
            data: {
              orderId: order.orderId,
              paymentId,
              amountPaise: order.amountPaise,
              reason: 'event cancelled',
            },
          })
          facts.push(...creditNotesOf(state, order, command.creditNotes))
        }
        return facts
      }
      case 'Refund': {
        const order = state.order
        if (!order || state.status === 'none') throw notFound(TICKET_NOT_FOUND)
        if (state.status !== 'issued') return paidTicketOnly(state.status)
        const facts: BookingFact[] = [
          {
            type: 'TicketCancelled',
            data: {
              orderId: order.orderId,
              ownerId: state.ownerId ?? order.buyerId,
              eventId: order.eventId,
              ticketTypeId: order.ticketTypeId,
              quantity: order.quantity,
              refundedBy: { by: command.by, reason: command.reason },
            },
          },
        ]
        const paymentId = ticketPayment(state)
        if (paymentId && order.amountPaise > 0) {
          facts.push({
            type: 'RefundRequested',
            data: {
              orderId: order.orderId,
              paymentId,
              amountPaise: order.amountPaise,
              reason: 'refunded by organizer',
            },
          })
          facts.push(...creditNotesOf(state, order, command.creditNotes))
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
      case 'Admit': {
        const { scan, door } = command
        const verdict = scanVerdict(state, scan, door)
        const order = state.order
        if (verdict.known || !order) return []
        if (verdict.result === 'admitted') {
          const admitted: PassAdmitted = {
            type: 'PassAdmitted',
            data: {
              orderId: order.orderId,
              eventId: order.eventId,
              ticketTypeId: order.ticketTypeId,
              admission: scan.admission,
              version: scan.version,
              scanId: scan.scanId,
              device: scan.device,
              scannedAt: scan.scannedAt,
              // the door's time of the scan (an offline door syncs later), never ahead of ours
              admittedAt: scanTime(scan, door),
            },
          }
          return [admitted]
        }
        const first = state.admitted[scan.admission]
        if (verdict.result === 'already-admitted' && first && state.doubleEntries < DOUBLE_ENTRIES_RECORDED) {
          const refused: PassScanRefused = {
            type: 'PassScanRefused',
            data: {
              orderId: order.orderId,
              eventId: order.eventId,
              admission: scan.admission,
              version: scan.version,
              scanId: scan.scanId,
              device: scan.device,
              scannedAt: scan.scannedAt,
              reason: 'already-admitted',
              firstAdmittedAt: first.admittedAt,
              firstDevice: first.device,
            },
          }
          return [refused]
        }
        // void, invalid and too-early scans leave no fact: asked again, they get the same answer
        return []
      }
      default:
        return command satisfies never
    }
  },
}

/**
 * When a scan counts as made: the door's clock (an offline door syncs later), but never ahead of
 * the server's, so a device whose clock is set forward can neither open the door early nor date an
 * admission in the future. A clock set back only makes its scans earlier: too early, at worst.
 */
export const scanTime = (scan: PassScan, door: DoorClock): string => earlierOf(scan.scannedAt, door.now)

/**
 * What a scan of a genuine code of this ticket is answered, against the ticket's stream: the scan
 * decided before (by its scanId) gets its answer again, whatever happened since; then a scan made
 * before the door opened is too early (whatever the ticket); then a ticket that is not a valid one
 * (unpaid, cancelled) or a code of a version a transfer replaced is void; an admission let in
 * already is a double entry; else it is admitted. Pure: decide() and the answer after the append
 * both read it.
 */
export function scanVerdict(state: OrderState, scan: PassScan, door: DoorClock): ScanVerdict {
  const first = state.admitted[scan.admission]
  const admittedAt = first?.admittedAt ?? null
  const known = state.scans[scan.scanId]
  if (known) return { result: known, admittedAt, known: true }
  const verdict = (result: ScanVerdict['result']): ScanVerdict => ({ result, admittedAt, known: false })
  const order = state.order
  if (!order || state.status === 'none' || order.eventId !== scan.eventId) return verdict('invalid')
  if (scanTime(scan, door) < door.opensAt) return verdict('too-early')
  if (state.status !== 'issued' || scan.version < state.passVersion) return verdict('void')
  // Signed by us, so these never come from a real pass: a code made by someone with our key?
  if (scan.version > state.passVersion || scan.admission > order.quantity) return verdict('invalid')
  return verdict(first ? 'already-admitted' : 'admitted')
}

/** the earlier of two ISO instants of the same form (text order is time order) */
function earlierOf(a: string, b: string): string {
  if (a < b) return a
  return b
}

/** Which of an order's documents it has terms for: the tickets' with a profile, the fee's when charged. */
export function documentsDue(order: TicketsHeld['data']): DocumentOf[] {
  const money = orderMoney(order)
  const due: DocumentOf[] = []
  if (order.tax && money.tickets.total > 0) due.push('tickets')
  if (order.fee && money.fee.total > 0) due.push('fee')
  return due
}

/** The invoices a ticket's issue takes: one per document due, numbered as drawn. */
function invoicesOf(state: OrderState, order: TicketsHeld['data'], draws: InvoiceDraws | undefined) {
  const facts: BookingFact[] = []
  for (const of of documentsDue(order)) {
    if (state.invoices[of]) continue
    const draw = draws?.[of]
    if (!draw || !draws) throw new Error(`no ${of} invoice number was drawn for order ${order.orderId}`)
    const document =
      of === 'tickets'
        ? ticketsInvoice(order, draw.parties, draws.day, draw.number.number)
        : feeInvoice(order, draw.parties, draws.day, draw.number.number)
    if (!document) continue
    const data: InvoiceIssued['data'] = {
      orderId: order.orderId,
      organizerId: order.organizerId,
      buyerId: order.buyerId,
      of,
      ...draw.number,
      document,
    }
    facts.push({ type: 'InvoiceIssued', data })
  }
  return facts
}

/** The credit notes a refund of the ticket takes: one against each of its invoices not credited yet. */
function creditNotesOf(state: OrderState, order: TicketsHeld['data'], draws: CreditNoteDraws | undefined) {
  const facts: BookingFact[] = []
  for (const of of ['tickets', 'fee'] as const) {
    const invoice = state.invoices[of]
    if (!invoice || state.credited[of]) continue
    const number = draws?.[of]
    if (!number || !draws) throw new Error(`no ${of} credit note number was drawn for order ${order.orderId}`)
    facts.push({
      type: 'CreditNoteIssued',
      data: {
        orderId: order.orderId,
        organizerId: order.organizerId,
        buyerId: order.buyerId,
        of,
        ...number,
        document: creditNote(invoice, draws.day, number.number),
      },
    })
  }
  return facts
}

/** The payment that paid for the ticket: the first one kept (a late one refused was refunded). */
const ticketPayment = (state: OrderState) => state.captured.find((id) => !state.refundsRequested.includes(id))

/** Why an order that is not a valid ticket cannot be treated as one, as the error to answer. */
function paidTicketOnly(status: Exclude<OrderStatus, 'issued' | 'none'>): never {
  switch (status) {
    case 'cancelled':
      throw conflict('This ticket is already cancelled.')
    case 'held':
      throw conflict('This order is not paid yet.')
    case 'failed':
    case 'expired':
      throw conflict('This order was not paid, so there is no ticket.')
    default:
      return status satisfies never
  }
}

/** The ticket, if `by` owns it now; otherwise the reason why not, as the error to answer. */
function ownedTicket(state: OrderState, by: string): TicketsHeld['data'] {
  const order = state.order
  if (!order || state.status === 'none') throw notFound(TICKET_NOT_FOUND)
  if (state.ownerId !== by) {
    if (state.formerOwners.includes(by)) throw conflict('This ticket has been transferred to someone else.')
    if (order.buyerId !== by) throw notFound(TICKET_NOT_FOUND)
  }
  if (state.status === 'issued') return order
  return paidTicketOnly(state.status)
}
