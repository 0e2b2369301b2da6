// Reads of the booking area, on either store: availability, orders and tickets, attendees, promo
// codes. Statuses are written into the SQL, never bound (db/constant.ts: SQLite plans a statement
// again on every run when a bound value decides whether one of orders' partial indexes applies).
// Every list is in a total order, the same on both stores: ids (newId()'s lowercase hex, as are
// account ids) and instants (ISO text) order alike under every collation, so only the promo codes'
// list needs d.bytes, and the primary key's order serves a page on both stores.
import { type Placeholder, type SQL, sql } from 'drizzle-orm'
import { capacitySql, catalogQueries } from '../catalog/queries.ts'
import { after, afterThat, type Now, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries, Awaitable } from '../db/store.ts'
import type { Replaying } from '../ledger/ledger.ts'
import { offeredSeatsSql, type WaitlistLine, waitingSql, waitlistQueries } from '../waitlist/queries.ts'
import { extrasOf, noExtras } from './extras.ts'
import { heldOrders } from './project.ts'
import type { PromoTerms } from './promo.ts'
import { type OrderRow, orders, type PaymentStatus, type PromoCodeRow, promoCodes } from './tables.ts'

export type { OrderRow }

/** Who may see a ticket (its screens, its passes): its holder (its buyer until issued), the event's
 * organizer, admins. */
export const mayReadTicket = (order: OrderRow, caller: { id: string; role: string }): boolean =>
  caller.role === 'admin' ||
  order.ownerId === caller.id ||
  (order.ownerId === null && order.buyerId === caller.id) ||
  (caller.role === 'organizers' && order.organizerId === caller.id)

/** Best first: a valid ticket, then a payment awaited, then a ticket cancelled, then a failed payment. */
const byRank: Record<number, PaymentStatus> = { 0: 'Completed', 1: 'Pending', 2: 'Cancelled', 3: 'Failed' }

/** a promo_codes row as the hold and the organizer read it */
export const promoTerms = (row: PromoCodeRow): PromoTerms => ({
  code: row.code,
  percentOff: row.percentOff,
  amountOffPaise: row.amountOffPaise,
  ticketTypeIds: row.ticketTypeIds,
  maxUses: row.maxUses,
  startsAt: row.startsAt,
  endsAt: row.endsAt,
  disabled: row.disabled,
  held: row.held,
  paid: row.paid,
})

/** what booking reads of other areas, through their queries (on the same executor) */
export type BookingAreas = {
  catalog: Pick<ReturnType<typeof catalogQueries>, 'cancelled' | 'cancelledIds'>
  waitlist: Pick<ReturnType<typeof waitlistQueries>, 'offeredTo' | 'lines'>
}

/** `text` with each `@id` in it the statement's parameter `id` */
const withId = (text: string, id: Placeholder): SQL => {
  const [first = '', ...rest] = text.split('@id')
  return sql.join([sql.raw(first), ...rest.flatMap((part) => [sql`${id}`, sql.raw(part)])])
}

/**
 * Seats on sale of one ticket type: its capacity (the catalogue's) less the seats held and sold
 * (booking's inventory) and those offered to its waiting list (the waiting list's), and whether
 * anyone waits. One statement, each area's part written by that area's queries (capacitySql,
 * offeredSeatsSql, waitingSql), because the hold reads it under the write lock on the flash sale's
 * hot path: three reads would be three round trips under the lock on PostgreSQL.
 */
const seatsOnSale = statement<{ id: string }, { free: number | null; waiting: boolean | number }>((p) =>
  withId(
    `SELECT CAST((${capacitySql('@id')} - coalesce((SELECT i.held + i.sold FROM inventory i WHERE i.ticket_type_id = @id), 0)
       - ${offeredSeatsSql('@id')}) AS integer) AS free, ${waitingSql('@id')} AS waiting`,
    p.id,
  ),
)

// capacity less the seats sold: what is left to sell should every hold and offer lapse
const unsoldSeats = statement<{ id: string }, { unsold: number | null }>((p) =>
  withId(
    `SELECT CAST((${capacitySql('@id')} - coalesce((SELECT i.sold FROM inventory i WHERE i.ticket_type_id = @id), 0))
       AS integer) AS unsold`,
    p.id,
  ),
)

const taken = statement<{ id: string }, { seats: number }>(
  (p) => sql`SELECT held + sold AS seats FROM inventory WHERE ticket_type_id = ${p.id}`,
)

const heldOfEvent = statement<{ eventId: string }, OrderRow>(
  (p) =>
    sql`SELECT ${orders.columns()} FROM orders WHERE event_id = ${p.eventId} AND status = 'held' ORDER BY id`,
)

const openOf = statement<{ eventIds: string[] }, { eventId: string }>(
  (p, d) => sql`SELECT DISTINCT event_id AS "eventId" FROM orders
    WHERE ${d.inList(sql`event_id`, p.eventIds)} AND status IN ('held', 'issued')`,
)

const takenOf = statement<{ eventIds: string[] }, { ticketTypeId: string; taken: number }>(
  (p, d) => sql`SELECT ticket_type_id AS "ticketTypeId", held + sold AS taken FROM inventory
    WHERE ${d.inList(sql`event_id`, p.eventIds)}`,
)

/** in the order of the partial index orders_issued_by_event (event, id) */
const issuedOwnersOf = statement<{ eventIds: string[] }, { eventId: string; ownerId: string | null }>(
  (p, d) => sql`SELECT event_id AS "eventId", owner_id AS "ownerId" FROM orders
    WHERE ${d.inList(sql`event_id`, p.eventIds)} AND status = 'issued' ORDER BY event_id, id`,
)

const byId = statement<{ id: string }, OrderRow>(
  (p) => sql`SELECT ${orders.columns()} FROM orders WHERE id = ${p.id}`,
)

const byProviderOrderId = statement<{ id: string }, OrderRow>(
  (p) => sql`SELECT ${orders.columns()} FROM orders WHERE provider_order_id = ${p.id}`,
)

const heldByBuyer = statement<{ buyerId: string; eventId: string }, OrderRow>(
  (p) => sql`SELECT ${orders.columns()} FROM orders
    WHERE buyer_id = ${p.buyerId} AND event_id = ${p.eventId} AND status = 'held' ORDER BY id`,
)

const issuedToBuyer = statement<{ buyerId: string; eventId: string }, { seats: number }>(
  (p) => sql`SELECT CAST(coalesce(sum(quantity), 0) AS integer) AS seats FROM orders
    WHERE buyer_id = ${p.buyerId} AND event_id = ${p.eventId} AND status = 'issued'`,
)

const heldFromClient = statement<{ clientKey: string; eventId: string }, { seats: number }>(
  (p) => sql`SELECT seats FROM held_by_client WHERE client_key = ${p.clientKey} AND event_id = ${p.eventId}`,
)

const ticketsOf = statement<{ accountId: string }, OrderRow>(
  (p) => sql`SELECT ${orders.columns()} FROM orders WHERE owner_id = ${p.accountId} AND status = 'issued'
    ORDER BY created_at DESC, id DESC`,
)

const cancelledTicketsOf = statement<{ accountId: string; limit: number }, OrderRow>(
  (p) => sql`SELECT ${orders.columns()} FROM orders WHERE owner_id = ${p.accountId} AND status = 'cancelled'
    ORDER BY cancelled_at DESC NULLS LAST, id DESC LIMIT ${p.limit}`,
)

const ticketsAt = statement<{ eventId: string; accountId: string }, OrderRow>(
  (p) => sql`SELECT ${orders.columns()} FROM orders
    WHERE owner_id = ${p.accountId} AND event_id = ${p.eventId} AND status = 'issued'
    ORDER BY created_at, id`,
)

const attendeeOf = statement<{ organizerId: string; accountId: string }, { one: number }>(
  (p) => sql`SELECT 1 AS one FROM orders
    WHERE organizer_id = ${p.organizerId} AND owner_id = ${p.accountId} AND status = 'issued' LIMIT 1`,
)

/** Each account's best payment status over the orders it holds or placed and never held. */
const bestOf = (forOrganizer: boolean) =>
  statement<{ ids: string[]; organizerId?: string }, { person: string; rank: number }>(
    (p, d) => sql`SELECT coalesce(owner_id, buyer_id) AS person,
        min(CASE payment_status WHEN 'Completed' THEN 0 WHEN 'Pending' THEN 1 WHEN 'Cancelled' THEN 2 ELSE 3 END)
          AS rank
      FROM orders
      WHERE (${d.inList(sql`owner_id`, p.ids)} OR (owner_id IS NULL AND ${d.inList(sql`buyer_id`, p.ids)}))
        ${forOrganizer ? sql`AND organizer_id = ${p.organizerId}` : sql``}
      GROUP BY coalesce(owner_id, buyer_id)`,
  )
const bestOfAll = bestOf(false)
const bestOfOrganizer = bestOf(true)

const issuedPage = statement<{ eventIds: string[]; afterId: string; limit: number }, OrderRow>(
  (p, d) => sql`SELECT ${orders.columns()} FROM orders
    WHERE ${d.inList(sql`event_id`, p.eventIds)} AND status = 'issued' AND id > ${p.afterId}
    ORDER BY id LIMIT ${p.limit}`,
)

const attendeeIds = statement<{ eventId: string }, { ownerId: string | null }>(
  (p) =>
    sql`SELECT DISTINCT owner_id AS "ownerId" FROM orders WHERE event_id = ${p.eventId} AND status = 'issued'
      ORDER BY owner_id`,
)

const releasedUnpaid = statement<{ since: string }, OrderRow>(
  (p) => sql`SELECT ${orders.columns()} FROM orders
    WHERE status IN ('failed', 'expired') AND payment_id IS NULL AND held_until >= ${p.since} AND provider <> 'free'
    ORDER BY id`,
)

const openHolds = statement<Record<string, never>, OrderRow>(
  () => sql`SELECT ${orders.columns()} FROM orders WHERE status = 'held' ORDER BY id`,
)

const refundsOwed = statement<Record<string, never>, OrderRow>(
  () => sql`SELECT ${orders.columns()} FROM orders WHERE refund = 'requested' ORDER BY id`,
)

const promoOne = statement<{ eventId: string; code: string }, PromoCodeRow>(
  (p) =>
    sql`SELECT ${promoCodes.columns()} FROM promo_codes WHERE event_id = ${p.eventId} AND code = ${p.code}`,
)

const promoAll = statement<{ eventId: string }, PromoCodeRow>(
  (p, d) => sql`SELECT ${promoCodes.columns()} FROM promo_codes WHERE event_id = ${p.eventId}
    ORDER BY created_at, ${d.bytes(sql`code`)}`,
)

const lapsed = statement<{ now: string }, OrderRow>(
  (p) => sql`SELECT ${orders.columns()} FROM orders WHERE status = 'held' AND held_until <= ${p.now}
    ORDER BY held_until, id`,
)

const lapsedOfType = statement<{ now: string; ticketTypeId: string }, OrderRow>(
  (p) => sql`SELECT ${orders.columns()} FROM orders
    WHERE status = 'held' AND held_until <= ${p.now} AND ticket_type_id = ${p.ticketTypeId}
    ORDER BY held_until, id`,
)

export function bookingQueries(
  x: Sql,
  areas: BookingAreas = { catalog: catalogQueries(x), waitlist: waitlistQueries(x) },
) {
  const { catalog, waitlist } = areas
  const order = orders.decode(x.dialect)
  const rows = (answer: Awaitable<Record<string, unknown>[]>) =>
    after(answer, (found) => found.map(order) as OrderRow[])
  const one = (answer: Awaitable<Record<string, unknown> | undefined>) =>
    after(answer, (found) => (found ? (order(found) as OrderRow) : undefined))
  const promo = promoCodes.decode(x.dialect)
  const onSale = (id: string) => x.get(seatsOnSale, { id })

  /**
   * Each account's best payment status over the orders it holds (issued or transferred to it) or
   * placed and never held (unpaid or failed), for one organizer's events or any; one query for many.
   */
  const bestPaymentStatuses = (
    accountIds: string[],
    organizerId?: string,
  ): Awaitable<Map<string, PaymentStatus>> => {
    if (accountIds.length === 0) return new Map()
    const found =
      organizerId === undefined
        ? x.all(bestOfAll, { ids: accountIds })
        : x.all(bestOfOrganizer, { ids: accountIds, organizerId })
    return after(found, (ranks) => {
      const best = new Map<string, PaymentStatus>()
      for (const row of ranks) {
        const status = byRank[row.rank]
        if (status) best.set(row.person, status)
      }
      return best
    })
  }

  return {
    // The capacity as the event's stream has it now (an edit may change it) less the seats taken:
    // read in the hold's transaction, both are exact under the write lock. Seats offered to a
    // waiting list (issue 17) are held for those people alone; while anyone waits, seats that come
    // back go to the list, not on sale.
    /** capacity − sold − held − offered: what anyone can book right now (none of a type that is
     * gone, none while people wait for it) */
    available: (ticketType: { id: string }): Awaitable<number> =>
      after(onSale(ticketType.id), (row) => (row && !row.waiting ? (row.free ?? 0) : 0)),
    /** capacity − sold: the seats left to sell should every hold and offer lapse (none: sold out) */
    unsold: (ticketTypeId: string): Awaitable<number> =>
      after(x.get(unsoldSeats, { id: ticketTypeId }), (row) => row?.unsold ?? 0),
    /** capacity − sold − held − offered, for the waiting list's offers */
    freeSeats: (ticketTypeId: string): Awaitable<number> =>
      after(onSale(ticketTypeId), (row) => row?.free ?? 0),
    /** seats of this ticket type offered to the account now (its waiting list's offer), or 0 */
    offeredTo: (accountId: string, ticketTypeId: string): Awaitable<number> =>
      waitlist.offeredTo(accountId, ticketTypeId),
    /** whether anyone waits for this ticket type */
    waiting: (ticketTypeId: string): Awaitable<boolean> =>
      after(onSale(ticketTypeId), (row) => Boolean(row?.waiting)),
    /** whether seats of this ticket type that come back are its waiting list's: anyone waits, or
     * is offered seats */
    keptForWaitlist: (ticketTypeId: string): Awaitable<boolean> =>
      after(waitlist.lines([ticketTypeId]), (lines) => {
        const line = lines.get(ticketTypeId)
        return line !== undefined && (line.waiting || line.offered > 0)
      }),
    /** seats of a ticket type sold or held (what an edit may not take its capacity below) */
    seatsTaken: (ticketTypeId: string): Awaitable<number> =>
      after(x.get(taken, { id: ticketTypeId }), (row) => row?.seats ?? 0),

    /** whether the event is called off (issue 17): read under the lock, it stops holds and sales */
    eventCancelled: (eventId: string): Awaitable<boolean> => catalog.cancelled(eventId),

    /** the unpaid holds of an event */
    heldOf: (eventId: string) => rows(x.all(heldOfEvent, { eventId })),

    /** Cancelled events that still have orders held or issued: their cancellation is unfinished. */
    cancelledWithOpenOrders: (): Awaitable<string[]> =>
      afterThat(catalog.cancelledIds(), (cancelled) =>
        cancelled.length === 0
          ? []
          : after(x.all(openOf, { eventIds: cancelled }), (open) => {
              const ids = new Set(open.map((row) => row.eventId))
              return cancelled.filter((id) => ids.has(id))
            }),
      ),

    /** Availability and attendees for the catalogue's event views, loaded once per list. */
    eventExtras: (eventIds: string[]) => {
      if (eventIds.length === 0) return noExtras
      return afterThat(x.all(takenOf, { eventIds }), (seats) =>
        afterThat(waitlist.lines(seats.map((row) => row.ticketTypeId)), (lines) =>
          after(x.all(issuedOwnersOf, { eventIds }), (issued) => extrasOf(withLines(seats, lines), issued)),
        ),
      )
    },

    byId: (orderId: string) => one(x.get(byId, { id: orderId })),

    /** The buyer's unpaid holds for an event (a new checkout for it replaces them). */
    heldBy: (buyerId: string, eventId: string) => rows(x.all(heldByBuyer, { buyerId, eventId })),
    /** Tickets of an event issued to orders this buyer placed and did not cancel. */
    seatsIssuedTo: (buyerId: string, eventId: string): Awaitable<number> =>
      after(x.get(issuedToBuyer, { buyerId, eventId }), (row) => row?.seats ?? 0),
    /** Unpaid seats of an event held from one client address (by its keyed hash). */
    seatsHeldFrom: (clientKey: string, eventId: string): Awaitable<number> =>
      after(x.get(heldFromClient, { clientKey, eventId }), (row) => row?.seats ?? 0),
    byProviderOrderId: (providerOrderId: string) => one(x.get(byProviderOrderId, { id: providerOrderId })),

    /** The tickets someone holds now (issued to them or transferred to them, not cancelled). */
    ticketsOf: (accountId: string) => rows(x.all(ticketsOf, { accountId })),

    /** The tickets someone held when they were cancelled, the latest cancelled first, at most `limit`. */
    cancelledTicketsOf: (accountId: string, limit: number) =>
      rows(x.all(cancelledTicketsOf, { accountId, limit })),
    /** one person's valid tickets to one event (the organizer's attendee list refunds from it) */
    ticketsAt: (eventId: string, accountId: string) => rows(x.all(ticketsAt, { eventId, accountId })),

    isAttendeeOf: (organizerId: string, accountId: string): Awaitable<boolean> =>
      after(x.get(attendeeOf, { organizerId, accountId }), (row) => row !== undefined),

    /** The best payment status of someone's orders (one organizer's events, or any), for attendee
     * lookups: Completed when they hold any valid ticket, not whatever their latest order did. */
    bestPaymentStatus: (accountId: string, organizerId?: string): Awaitable<PaymentStatus | null> =>
      after(bestPaymentStatuses([accountId], organizerId), (best) => best.get(accountId) ?? null),
    bestPaymentStatuses,

    /** Issued tickets of some events, a page at a time in id order (for long exports). */
    issuedPage: (eventIds: string[], afterId: string, limit: number): Awaitable<OrderRow[]> =>
      eventIds.length === 0 ? [] : rows(x.all(issuedPage, { eventIds, afterId, limit })),

    /** The accounts holding tickets to an event now. */
    attendeeIds: (eventId: string): Awaitable<string[]> =>
      after(x.all(attendeeIds, { eventId }), (found) => found.flatMap((r) => (r.ownerId ? [r.ownerId] : []))),

    /** Orders released without a captured payment (given up, replaced, lapsed) whose hold ran
     * until `since` or later: a payment the provider accepted for one may still be unconfirmed. */
    releasedUnpaid: (since: string) => rows(x.all(releasedUnpaid, { since })),

    /** Every hold still waiting for its payment. */
    openHolds: () => rows(x.all(openHolds, {})),

    /** Orders with a refund asked for and not yet paid out. */
    refundsOwed: () => rows(x.all(refundsOwed, {})),

    /** A promo code of an event (upper-case) with its uses, or null (issue 17). */
    promoCode: (eventId: string, code: string): Awaitable<PromoTerms | null> =>
      after(x.get(promoOne, { eventId, code }), (row) => (row ? promoTerms(promo(row)) : null)),
    /** An event's promo codes, oldest first. */
    promoCodesOf: (eventId: string): Awaitable<PromoTerms[]> =>
      after(x.all(promoAll, { eventId }), (found) => found.map((row) => promoTerms(promo(row)))),

    /** Holds whose time is up but which no fact has released yet. */
    lapsedHolds: (now: string, ticketTypeId?: string) =>
      rows(ticketTypeId ? x.all(lapsedOfType, { now, ticketTypeId }) : x.all(lapsed, { now })),
  }
}

/**
 * Seats taken per ticket type (held and sold) with their waiting lists' (the waiting list's reads):
 * seats offered count as taken, and a type someone waits for has none on sale.
 */
export const withLines = (
  taken: ReadonlyArray<{ ticketTypeId: string; taken: number }>,
  lines: ReadonlyMap<string, WaitlistLine>,
) =>
  taken.map((row) => {
    const line = lines.get(row.ticketTypeId)
    return {
      ticketTypeId: row.ticketTypeId,
      taken: row.taken + (line?.offered ?? 0),
      waiting: line?.waiting ?? false,
    }
  })

/**
 * An order's ticket type or event as an SQL expression, for another area's statement that moves
 * figures by order (analytics): the statement finds the row itself, with no read before it.
 */
export const orderFieldSql = (field: 'ticketTypeId' | 'eventId', orderId: SQL | Placeholder) =>
  sql`(SELECT ${sql.raw(field === 'ticketTypeId' ? 'ticket_type_id' : 'event_id')} FROM orders WHERE id = ${orderId})`

/** what other areas' projections read of an order: only the columns they fold */
export type OrderSummary = Pick<
  OrderRow,
  'eventId' | 'organizerId' | 'ticketTypeId' | 'ticketType' | 'quantity' | 'amountPaise'
>

const summaryOf = statement<{ id: string }, OrderSummary>(
  (p) => sql`SELECT event_id AS "eventId", organizer_id AS "organizerId", ticket_type_id AS "ticketTypeId",
      ticket_type AS "ticketType", quantity, amount_paise AS "amountPaise" FROM orders WHERE id = ${p.id}`,
)

/**
 * An order's summary by id, for the analytics and check-in projections (run for every sale, and a
 * million times in a rebuild), on the executor of the appending transaction. Reading the whole row
 * mapped its 28 columns each time: about a sixth of a rebuild's time went to that (issue 18's
 * profile of `ledger:rebuild`). During SQLite's rebuild replay, booking holds the orders in memory.
 */
export function orderSummaries(x: Sql, replaying?: Replaying) {
  const held = heldOrders(replaying)
  if (held) return { summary: (orderId: string): Awaitable<OrderSummary | undefined> => held(orderId) }
  return { summary: (orderId: string) => x.get(summaryOf, { id: orderId }) }
}

/** the SQLite reads as they answer, at once */
export type BookingQueriesNow = Now<ReturnType<typeof bookingQueries>>
/** the reads on either store, awaited (db/store.ts) */
export type BookingQueries = AsyncQueries<ReturnType<typeof bookingQueries>>
