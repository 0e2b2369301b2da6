// Booking commands with what they must look up inside the same transaction (live availability
// of the ticket type), shared by the routes and the workers.
import { type Box, CHOOSE_SEATS, SINGLE_SEAT_LEFT } from '../../contracts/seating.ts'
import { documentNumber, financialYear, type Series } from '../billing/documents.ts'
import type { Invoicing, OrderSuppliers } from '../billing/invoicing.ts'
import type { BillingQueries } from '../billing/queries.ts'
import type { TicketTypeRow } from '../catalog/queries.ts'
import {
  type DecisionTx,
  decisionLocks,
  type LedgerPort,
  type Step,
  type StepQueries,
  together,
  wait,
} from '../db/store.ts'
import { conflict } from '../errors.ts'
import { streams } from '../ids.ts'
import { decideIn } from '../ledger/decider.ts'
import type { FactMeta } from '../ledger/ledger.ts'
import type { GatewayPayment } from '../payments/port.ts'
import type { SeatingQueries } from '../seating/queries.ts'
import { waitlistDecider } from '../waitlist/decide.ts'
import {
  type CancelCutoff,
  type CreditNoteDraws,
  documentsDue,
  type InvoiceDraws,
  type OrderCommand,
  type OrderState,
  orderDecider,
  REPLACED_BY_NEW_CHECKOUT,
} from './decide.ts'
import type { TicketsHeld } from './facts.ts'
import type { BookingQueries, OrderRow } from './queries.ts'
import { bestSeatsNow, strandsNow } from './seats.ts'

/** The limits a hold is decided under (from the settings and the event). */
export type HoldLimits = {
  /** the event's start, or its own sales end if earlier (ISO) */
  salesCloseAt: string
  maxHeldFromAddress: number
  maxTicketsPerAccount: number
}

/** what booking's decisions read inside their own transaction */
export type BookingReads = {
  booking: StepQueries<BookingQueries>
  /** a seated order's seats as they are now (issue 40) */
  seating: Pick<
    StepQueries<SeatingQueries>,
    'placesOf' | 'section' | 'roomNow' | 'rowsNow' | 'rowsWithRun' | 'seatedType' | 'statusNow' | 'namedNow'
  >
  /** the invoice series' last numbers (issue 42) */
  billing: Pick<StepQueries<BillingQueries>, 'lastSeq'>
}
export type BookingLedger = Pick<LedgerPort<BookingReads>, 'kind' | 'transaction' | 'transactionInBatch'>
type Tx = DecisionTx<BookingReads>

/** One order command, decided and appended as a step of the caller's transaction. */
function* run(
  tx: Tx,
  orderId: string,
  command: OrderCommand | ((state: OrderState) => Step<OrderCommand>),
  meta: FactMeta,
  fresh = false,
) {
  return (yield* decideIn(tx, orderDecider, { stream: streams.order(orderId), command, meta, fresh })).facts
}

/** the last invoice numbers of suppliers' series, read already under their locks, by supplier */
type LastInvoices = ReadonlyMap<string, number>

/** the next number of a supplier's series, read under its lock (unless read already) */
function* nextNumber(
  tx: Tx,
  supplierId: string,
  prefix: string,
  series: Series,
  day: string,
  read?: LastInvoices,
) {
  const fy = financialYear(day)
  const known = series === 'invoice' ? read?.get(supplierId) : undefined
  const seq = (known ?? (yield* wait(tx.reads.billing.lastSeq(supplierId, series, fy)))) + 1
  return { supplierId, series, fy, seq, number: documentNumber(prefix, fy, series, seq) }
}

/**
 * The numbers for the invoices a payment of this order may issue: one per document its terms make
 * due and not issued yet, while the payment can still issue its ticket (held, or lapsed).
 */
function* invoiceDraws(tx: Tx, state: OrderState, invoicing: Invoicing, day: string, read?: LastInvoices) {
  const order = state.order
  if (!order || !['held', 'failed', 'expired'].includes(state.status)) return undefined
  const suppliers = invoicing.suppliersOf(order)
  const draws: InvoiceDraws = { day }
  for (const of of documentsDue(order)) {
    const supplier = suppliers[of]
    if (state.invoices[of] || !supplier) continue
    draws[of] = {
      number: yield* nextNumber(tx, supplier.supplierId, supplier.prefix, 'invoice', day, read),
      parties: supplier.parties,
    }
  }
  return draws
}

/**
 * invoiceDraws dated today, the day taken under the suppliers' locks (an invoice numbered after
 * another is never dated before it, whichever process drew first); the last numbers read ahead for
 * `fy` are used only while today is still in that financial year.
 */
function* invoicesNow(tx: Tx, state: OrderState, invoicing: Invoicing, fy: string, read: LastInvoices) {
  const day = invoicing.today()
  return yield* invoiceDraws(tx, state, invoicing, day, financialYear(day) === fy ? read : undefined)
}

/** The numbers for the credit notes a refund of this ticket may issue: one per invoice not credited. */
function* creditNoteDraws(tx: Tx, state: OrderState, invoicing: Invoicing, day: string) {
  const draws: CreditNoteDraws = { day }
  const suppliers: OrderSuppliers = state.order ? invoicing.suppliersOf(state.order) : {}
  for (const of of ['tickets', 'fee'] as const) {
    const supplier = suppliers[of]
    if (!state.invoices[of] || state.credited[of] || !supplier) continue
    draws[of] = yield* nextNumber(tx, supplier.supplierId, supplier.prefix, 'credit-note', day)
  }
  return draws
}

/**
 * How many seats of a ticket type are on sale, read inside the hold's transaction (booking's
 * available(): capacity − held − sold). A test may stand in a stale count to show the race this
 * reading under the lock prevents (tests/integration/oversell.test.ts); production never does.
 */
export type SeatsLeft = (
  ticketType: TicketTypeRow,
  order: TicketsHeld['data'],
  booking: StepQueries<BookingQueries>,
) => number | Promise<number>

export function bookingCommands(
  ledger: BookingLedger,
  seatsLeft: SeatsLeft = (ticketType, _order, booking) => booking.available(ticketType),
  /** invoices and credit notes (issue 42); without it none are issued */
  invoices?: Invoicing & { orderOf(orderId: string): Promise<OrderRow | undefined> },
) {
  /**
   * A command on a paid ticket that may refund it, with the numbers of the credit notes that
   * refund takes, drawn under the order's suppliers' locks.
   */
  const refunding = async (
    orderId: string,
    cmd: Extract<OrderCommand, { type: 'Cancel' | 'Refund' | 'CancelForEvent' }>,
    meta: FactMeta,
    inBatch = false,
  ) => {
    const order = invoices ? await invoices.orderOf(orderId) : undefined
    if (!invoices || !order) {
      const work = (tx: Tx) => run(tx, orderId, cmd, meta)
      return inBatch ? ledger.transactionInBatch(work) : ledger.transaction(work)
    }
    const work = (tx: Tx) =>
      run(
        tx,
        orderId,
        function* (state) {
          // the day of issue is taken here, under the suppliers' locks (the order's stream was read
          // after them): a credit note numbered after another is never dated before it
          const day = invoices.today()
          return { ...cmd, creditNotes: yield* creditNoteDraws(tx, state, invoices, day) }
        },
        meta,
      )
    const options = { lock: invoices.locksOf(order) }
    return inBatch ? ledger.transactionInBatch(work, options) : ledger.transaction(work, options)
  }

  /** Holds that ran out but were not released yet give their seats back first: whether there were any. */
  function* releaseLapsed(tx: Tx, now: string, ticketTypeId?: string): Step<boolean> {
    const lapsed = yield* wait(tx.reads.booking.lapsedHolds(now, ticketTypeId))
    for (const order of lapsed) {
      yield* run(tx, order.id, { type: 'Expire', now }, { actor: 'system' })
    }
    return lapsed.length > 0
  }
  /** one command on one order, in a transaction of its own */
  const command = (orderId: string, cmd: OrderCommand, meta: FactMeta) =>
    ledger.transaction((tx) => run(tx, orderId, cmd, meta))

  return {
    /**
     * Decides the hold against availability read under its event's lock, so concurrent orders
     * (in any process) can never take more seats than exist; settles once the hold is committed.
     */
    hold(
      asked: TicketsHeld['data'],
      ticketType: TicketTypeRow,
      meta: FactMeta,
      limits: HoldLimits,
      /** a seated type's best seats for the quantity, chosen here under the lock (issue 40) */
      best?: { stage: Box | null },
    ) {
      // Holds are the flash sale's hot write: they share commits (group commit).
      return ledger.transactionInBatch(
        function* (tx) {
          const { booking, seating } = tx.reads
          const now = new Date().toISOString()
          let order = asked
          let seatIds = order.seats?.map((s) => s.id) ?? []
          // What the hold is decided against: the buyer's unpaid holds of the event, the seats a
          // waiting list offered them, the seats on sale, those held from the buyer's address, their
          // free tickets, the promo code, the event.
          const rest = () =>
            together([
              booking.offeredTo(order.buyerId, order.ticketTypeId),
              seatsLeft(ticketType, order, booking),
              order.clientKey ? booking.seatsHeldFrom(order.clientKey, order.eventId) : 0,
              // the cap is for free tickets only: a paid hold need not read it
              order.amountPaise === 0 ? booking.seatsIssuedTo(order.buyerId, order.eventId) : 0,
              order.promoCode ? booking.promoCode(order.eventId, order.promoCode) : undefined,
              booking.eventCancelled(order.eventId),
              // the named seats' rows and each one's status in them (the best seats were just chosen
              // as free, under this lock: not read again)
              seatIds.length > 0 && !best && order.seats
                ? seating.namedNow(order.eventId, order.ticketTypeId, order.seats)
                : NONE_NAMED,
              // a hold by count on a type its seat map has made seated since the checkout looked
              seatIds.length === 0 && !best ? seating.seatedType(order.eventId, order.ticketTypeId) : false,
            ] as const)
          // On PostgreSQL all are read together, in one round trip with BEGIN and the locks, and read
          // again should a release change them; on SQLite, where a read costs no round trip, the
          // buyer's holds first, then the rest once they are released.
          const readAhead = ledger.kind === 'postgres'
          const first = readAhead
            ? yield* wait(together([booking.heldBy(order.buyerId, order.eventId), rest()] as const))
            : undefined
          const replaced = first ? first[0] : yield* wait(booking.heldBy(order.buyerId, order.eventId))
          // One unpaid hold per buyer and event: a new checkout gives the previous one's seats back
          // first, so nobody can stack holds on an event, and the buyer's own seats count for them.
          for (const previous of replaced) {
            yield* run(
              tx,
              previous.id,
              { type: 'Release', by: order.buyerId, reason: REPLACED_BY_NEW_CHECKOUT },
              meta,
            )
          }
          // the best seats, as they are once the buyer's last hold gave its own back
          if (best) {
            const seats = yield* bestSeatsNow(
              seating,
              order.eventId,
              order.ticketTypeId,
              order.quantity,
              best.stage,
            )
            order = { ...order, seats }
            seatIds = seats.map((s) => s.id)
          }
          let [offered, left, heldFromAddress, issuedToBuyer, promo, eventCancelled, namedNow, seatedNow] =
            first && replaced.length === 0 && !best ? first[1] : yield* wait(rest())
          let seatsNow = namedNow.statuses
          let strands = false
          if (seatIds.length > 0 && !best) {
            /** whether the named seats are refused as the rows are now: one taken, or a single stranded */
            const refusedNow = function* (): Step<boolean> {
              return (
                seatsNotFree(seatIds, seatsNow).length > 0 ||
                (yield* strandsNow(
                  seating,
                  order.eventId,
                  order.ticketTypeId,
                  seatsNow,
                  undefined,
                  namedNow.rows ?? undefined,
                ))
              )
            }
            let refused = yield* refusedNow()
            // a hold past its deadline still holds its seats until it is released: released first
            // when the choice would be refused as things are, and the choice judged again
            if (refused && (yield* releaseLapsed(tx, now, ticketType.id))) {
              ;[offered, left, heldFromAddress, issuedToBuyer, promo, eventCancelled, namedNow, seatedNow] =
                yield* wait(rest())
              seatsNow = namedNow.statuses
              refused = yield* refusedNow()
            }
            // named seats all free: refused if they strand a single seat (a taken one is the Hold's
            // refusal, naming the seats), once the Hold's own checks pass (below)
            strands = refused && seatsNotFree(seatIds, seatsNow).length === 0
          }
          // seats a waiting list offered this buyer are theirs to book (issue 17)
          let available = left + offered
          if (available < order.quantity) {
            yield* releaseLapsed(tx, now, ticketType.id)
            available = (yield* wait(seatsLeft(ticketType, order, booking))) + offered
          }
          const facts = yield* run(
            tx,
            order.orderId,
            {
              type: 'Hold',
              order,
              available,
              ...(seatIds.length > 0 && !best ? { seatsTaken: seatsNotFree(seatIds, seatsNow) } : {}),
              checks: {
                now,
                salesCloseAt: limits.salesCloseAt,
                heldFromAddress,
                maxHeldFromAddress: limits.maxHeldFromAddress,
                issuedToBuyer,
                maxTicketsPerAccount: limits.maxTicketsPerAccount,
                ...(order.promoCode ? { promo } : {}),
                eventCancelled,
              },
            },
            meta,
            // the order's id was made for this checkout (checkout.ts): its stream is new
            true,
          )
          // the last reason to refuse: an event called off, sales closed or a cap says so first
          if (strands) throw conflict(SINGLE_SEAT_LEFT)
          if (seatedNow) throw conflict(CHOOSE_SEATS)
          if (offered > 0) {
            yield* decideIn(tx, waitlistDecider, {
              stream: streams.waitlist(order.ticketTypeId),
              command: {
                type: 'Use',
                ticketTypeId: order.ticketTypeId,
                accountId: order.buyerId,
                orderId: order.orderId,
              },
              meta,
            })
          }
          return { facts, replaced: replaced.map((r) => r.id) }
        },
        { lock: decisionLocks.event(asked.eventId) },
      )
    },

    /**
     * Applies what the provider says about an order's payments: captures first, then failures,
     * each committed in turn (sharing commits with other work: group commit). The seats and the
     * order's promo code (`promoCode`, if it used one) are read under the event's lock: a payment
     * after the hold lapsed is decided against them as they are now.
     */
    async applyPayments(
      orderId: string,
      ticketType: TicketTypeRow,
      payments: GatewayPayment[],
      promoCode: string | null = null,
      /** a seated order's seat ids */
      seatIds: readonly string[] | null = null,
      /** the order's row, for its invoices (issue 42) */
      row: OrderRow | null = null,
    ) {
      const ordered = [...payments].sort((a, b) => rank(a) - rank(b))
      const captures = ordered.some((p) => p.status === 'captured' || p.status === 'refunded')
      const order = invoices && captures ? (row ?? (await invoices.orderOf(orderId))) : undefined
      // who the invoices name is in the hold; their numbers are drawn under the suppliers' locks
      const invoiced = invoices && order ? invoices : null
      // the financial year whose last numbers are read with the payment's first reads (its day is
      // taken again under the locks: at the year's turn the numbers are read again for the new one)
      const fy = invoiced ? financialYear(invoiced.today()) : ''
      // a paid order may take an invoice of each series (a free one none)
      const invoiceSeries = invoiced && order && order.amountPaise > 0 ? invoiced.suppliersFor(order) : []
      for (const payment of ordered) {
        if (payment.status === 'captured' || payment.status === 'refunded') {
          await ledger.transactionInBatch(
            function* (tx) {
              const { booking, seating, billing } = tx.reads
              // read together (one round trip on PostgreSQL), with the last numbers of the series
              // its invoices may be numbered in, under their locks: the order's stream says which
              const [available, eventCancelled, seats, promoTerms, ...lastInvoices] = yield* wait(
                together([
                  booking.available(ticketType),
                  booking.eventCancelled(ticketType.eventId),
                  seatIds ? seating.statusNow(ticketType.eventId, seatIds) : null,
                  promoCode ? booking.promoCode(ticketType.eventId, promoCode) : null,
                  ...invoiceSeries.map((supplierId) => billing.lastSeq(supplierId, 'invoice', fy)),
                ] as const),
              )
              const read: LastInvoices = new Map(invoiceSeries.map((id, i) => [id, lastInvoices[i] ?? 0]))
              // a seated order paid after its hold lapsed: its very seats must be free again
              const seatsTaken = seatIds && seats ? { seatsTaken: seatsNotFree(seatIds, seats) } : {}
              const promo = promoCode ? { promo: promoTerms } : {}
              const capture: OrderCommand = {
                type: 'Capture',
                paymentId: payment.id,
                amountPaise: payment.amount,
                method: payment.method,
                available,
                eventCancelled,
                ...promo,
                ...seatsTaken,
                now: new Date().toISOString(),
              }
              // one by count, paid after its hold lapsed: its type may have become seated since (a
              // ticket of a seated type without a seat would be one seat too many)
              const lapsedByCount = (state: OrderState) =>
                !seatIds && (state.status === 'failed' || state.status === 'expired')
              return yield* run(
                tx,
                orderId,
                invoiced || !seatIds
                  ? function* (state) {
                      const seatedNow =
                        lapsedByCount(state) &&
                        (yield* wait(seating.seatedType(ticketType.eventId, ticketType.id)))
                      return {
                        ...capture,
                        ...(seatedNow ? { seatedNow } : {}),
                        ...(invoiced ? { invoices: yield* invoicesNow(tx, state, invoiced, fy, read) } : {}),
                      }
                    }
                  : capture,
                { actor: 'system' },
              )
            },
            {
              lock: invoiced
                ? [decisionLocks.event(ticketType.eventId), ...(order ? invoiced.locksOf(order) : [])]
                : decisionLocks.event(ticketType.eventId),
            },
          )
        } else if (payment.status === 'failed') {
          await ledger.transactionInBatch((tx) =>
            run(
              tx,
              orderId,
              { type: 'Fail', paymentId: payment.id, reason: payment.errorDescription ?? 'Payment failed.' },
              { actor: 'system' },
            ),
          )
        }
      }
    },

    expire: (orderId: string, now = new Date().toISOString()) =>
      command(orderId, { type: 'Expire', now }, { actor: 'system' }),

    /** Releases every hold past its expiry (at start, and when a ticket type runs short). */
    releaseLapsedHolds: (now = new Date().toISOString()) =>
      ledger.transaction((tx) => releaseLapsed(tx, now)),

    recordRefund: (orderId: string, paymentId: string, refundId: string) =>
      command(orderId, { type: 'RecordRefund', paymentId, refundId }, { actor: 'system' }),

    cancel: (orderId: string, by: string, cutoff: CancelCutoff | null, meta: FactMeta) =>
      refunding(orderId, { type: 'Cancel', by, cutoff, now: new Date().toISOString() }, meta),

    /** the event's organizer or an admin cancels a ticket and refunds it (the caller's right is the route's) */
    refund: (orderId: string, by: string, reason: string, meta: FactMeta) =>
      refunding(orderId, { type: 'Refund', by, reason }, meta),

    /** one order of an event called off: its hold released, or its ticket cancelled and refunded */
    cancelForEvent: (orderId: string, reason: string) =>
      refunding(orderId, { type: 'CancelForEvent', reason }, { actor: 'system' }, true),

    transfer: (orderId: string, by: string, toId: string | null, meta: FactMeta) =>
      command(orderId, { type: 'Transfer', by, toId }, meta),
  }
}

/** no seats named: no rows or statuses read */
const NONE_NAMED = { rows: null, statuses: [] } as const

/** the seats named that are not free now (held, sold, blocked, or gone from the plan) */
function seatsNotFree(ids: readonly string[], now: readonly { id: string; status: string }[]): string[] {
  const free = new Set(now.filter((s) => s.status === 'free').map((s) => s.id))
  return ids.filter((id) => !free.has(id))
}

const rank = (payment: GatewayPayment) =>
  payment.status === 'captured' || payment.status === 'refunded' ? 0 : 1

export type BookingCommands = ReturnType<typeof bookingCommands>
