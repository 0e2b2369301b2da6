// Reads of the booking area: availability, orders and tickets, attendees.
import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm'
import { type CatalogQueriesNow, capacitySql, catalogQueries, type EventExtras } from '../catalog/queries.ts'
import type { Db } from '../db/connection.ts'
import { equalsConstant, inConstants } from '../db/constant.ts'
import { answeringNow, sqliteSql } from '../db/sql.ts'
import {
  heldByClientTable as heldByClient,
  inventoryTable as inventory,
  ordersTable as orders,
  promoCodesTable as promoCodes,
} from '../db/sqlite-read-models.ts'
import type { AsyncQueries } from '../db/store.ts'
import type { Replaying } from '../ledger/ledger.ts'
import {
  offeredSeatsSql,
  type WaitlistLine,
  type WaitlistQueriesNow,
  waitingSql,
  waitlistQueries,
} from '../waitlist/queries.ts'
import { extrasOf, noExtras } from './extras.ts'
import { heldOrders } from './project.ts'
import type { PromoTerms } from './promo.ts'
import type { PaymentStatus } from './tables.ts'

export type OrderRow = typeof orders.$inferSelect

/** Who may see a ticket (its screens, its passes): its holder (its buyer until issued), the event's
 * organizer, admins. */
export const mayReadTicket = (order: OrderRow, caller: { id: string; role: string }): boolean =>
  caller.role === 'admin' ||
  order.ownerId === caller.id ||
  (order.ownerId === null && order.buyerId === caller.id) ||
  (caller.role === 'organizers' && order.organizerId === caller.id)

/** Best first: a valid ticket, then a payment awaited, then a ticket cancelled, then a failed payment. */
const paymentRank: Record<PaymentStatus, number> = { Completed: 0, Pending: 1, Cancelled: 2, Failed: 3 }
const byRank = Object.fromEntries(
  Object.entries(paymentRank).map(([status, rank]) => [rank, status]),
) as Record<number, PaymentStatus>

/** a promo_codes row as the hold and the organizer read it */
export const promoTerms = (row: typeof promoCodes.$inferSelect): PromoTerms => ({
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

/** what booking reads of other areas, through their queries */
export type BookingAreas = {
  catalog: Pick<CatalogQueriesNow, 'cancelled' | 'cancelledIds'>
  waitlist: Pick<WaitlistQueriesNow, 'offeredTo' | 'lines'>
}

/**
 * Seats on sale of one ticket type (@id): its capacity (the catalogue's) less the seats held and
 * sold (booking's inventory) and those offered to its waiting list (the waiting list's), and whether
 * anyone waits. One statement, each area's part written by that area's queries (capacitySql,
 * offeredSeatsSql, waitingSql), because the hold reads it under the write lock on the flash sale's hot
 * path: three reads would be three round trips under the lock on PostgreSQL. `id`: the store's
 * parameter for the ticket type's id (@id on SQLite, $1 on PostgreSQL); `cast`: PostgreSQL's ::int.
 */
export const seatsOnSaleSql = (id: string, cast = '') =>
  `SELECT (${capacitySql(id)} - coalesce((SELECT i.held + i.sold FROM inventory i WHERE i.ticket_type_id = ${id}), 0)
     - ${offeredSeatsSql(id)})${cast} AS free, ${waitingSql(id)} AS waiting`

export function bookingQueries(
  db: Db,
  areas: BookingAreas = {
    catalog: answeringNow(catalogQueries(sqliteSql(db.$client))),
    waitlist: answeringNow(waitlistQueries(sqliteSql(db.$client))),
  },
) {
  const { catalog, waitlist } = areas
  /**
   * Each account's best payment status over the orders it holds (issued or transferred to it) or
   * placed and never held (unpaid or failed), for one organizer's events or any; one query for many.
   */
  const bestPaymentStatuses = (accountIds: string[], organizerId?: string): Map<string, PaymentStatus> => {
    const best = new Map<string, PaymentStatus>()
    if (accountIds.length === 0) return best
    const person = sql<string>`coalesce(${orders.ownerId}, ${orders.buyerId})`
    const rank = sql<number>`min(CASE ${orders.paymentStatus} WHEN 'Completed' THEN 0 WHEN 'Pending' THEN 1 WHEN 'Cancelled' THEN 2 ELSE 3 END)`
    const whose = or(
      inArray(orders.ownerId, accountIds),
      and(isNull(orders.ownerId), inArray(orders.buyerId, accountIds)),
    )
    const rows = db
      .select({ person, rank })
      .from(orders)
      .where(organizerId ? and(whose, eq(orders.organizerId, organizerId)) : whose)
      .groupBy(person)
      .all()
    for (const row of rows) {
      const status = byRank[row.rank]
      if (status) best.set(row.person, status)
    }
    return best
  }

  // The capacity as the event's stream has it now (an edit may change it) less the seats taken:
  // read in the hold's transaction, both are exact under the write lock.
  // Seats offered to a waiting list (issue 17) are held for those people alone; while anyone waits,
  // seats that come back go to the list, not on sale.
  const onSale = db.$client.prepare<{ id: string }, { free: number | null; waiting: number }>(
    seatsOnSaleSql('@id'),
  )
  const taken = db
    .select({ seats: sql<number>`${inventory.held} + ${inventory.sold}` })
    .from(inventory)
    .where(eq(inventory.ticketTypeId, sql.placeholder('id')))
    .prepare()
  const heldOfEvent = db
    .select()
    .from(orders)
    .where(and(eq(orders.eventId, sql.placeholder('eventId')), equalsConstant(orders.status, 'held')))
    .prepare()
  const promoOne = db
    .select()
    .from(promoCodes)
    .where(
      and(eq(promoCodes.eventId, sql.placeholder('eventId')), eq(promoCodes.code, sql.placeholder('code'))),
    )
    .prepare()
  const promoAll = db
    .select()
    .from(promoCodes)
    .where(eq(promoCodes.eventId, sql.placeholder('eventId')))
    .orderBy(asc(promoCodes.createdAt), asc(promoCodes.code))
    .prepare()
  const byProviderOrderId = db
    .select()
    .from(orders)
    .where(eq(orders.providerOrderId, sql.placeholder('id')))
    .prepare()
  const lapsed = db
    .select()
    .from(orders)
    .where(and(equalsConstant(orders.status, 'held'), lte(orders.heldUntil, sql.placeholder('now'))))
    .prepare()
  const lapsedOfType = db
    .select()
    .from(orders)
    .where(
      and(
        equalsConstant(orders.status, 'held'),
        lte(orders.heldUntil, sql.placeholder('now')),
        eq(orders.ticketTypeId, sql.placeholder('ticketTypeId')),
      ),
    )
    .prepare()

  const byId = db
    .select()
    .from(orders)
    .where(eq(orders.id, sql.placeholder('id')))
    .prepare()
  const heldByBuyer = db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.buyerId, sql.placeholder('buyerId')),
        eq(orders.eventId, sql.placeholder('eventId')),
        equalsConstant(orders.status, 'held'),
      ),
    )
    .prepare()
  const issuedToBuyer = db
    .select({ seats: sql<number>`coalesce(sum(${orders.quantity}), 0)` })
    .from(orders)
    .where(
      and(
        eq(orders.buyerId, sql.placeholder('buyerId')),
        eq(orders.eventId, sql.placeholder('eventId')),
        equalsConstant(orders.status, 'issued'),
      ),
    )
    .prepare()
  const heldFromClient = db
    .select({ seats: heldByClient.seats })
    .from(heldByClient)
    .where(
      and(
        eq(heldByClient.clientKey, sql.placeholder('clientKey')),
        eq(heldByClient.eventId, sql.placeholder('eventId')),
      ),
    )
    .prepare()

  return {
    /** capacity − sold − held − offered: what anyone can book right now (none of a type that is
     * gone, none while people wait for it) */
    available: (ticketType: { id: string }): number => {
      const row = onSale.get({ id: ticketType.id })
      return row && !row.waiting ? (row.free ?? 0) : 0
    },
    /** capacity − sold − held − offered, for the waiting list's offers */
    freeSeats: (ticketTypeId: string): number => onSale.get({ id: ticketTypeId })?.free ?? 0,
    /** seats of this ticket type offered to the account now (its waiting list's offer), or 0 */
    offeredTo: (accountId: string, ticketTypeId: string): number =>
      waitlist.offeredTo(accountId, ticketTypeId),
    /** whether anyone waits for this ticket type */
    waiting: (ticketTypeId: string): boolean => Boolean(onSale.get({ id: ticketTypeId })?.waiting),
    /** seats of a ticket type sold or held (what an edit may not take its capacity below) */
    seatsTaken: (ticketTypeId: string): number => taken.get({ id: ticketTypeId })?.seats ?? 0,

    /** whether the event is called off (issue 17): read under the lock, it stops holds and sales */
    eventCancelled: (eventId: string): boolean => catalog.cancelled(eventId),

    /** the unpaid holds of an event */
    heldOf: (eventId: string): OrderRow[] => heldOfEvent.all({ eventId }),

    /** Cancelled events that still have orders held or issued: their cancellation is unfinished. */
    cancelledWithOpenOrders: (): string[] => {
      const cancelled = catalog.cancelledIds()
      if (cancelled.length === 0) return []
      const open = new Set(
        db
          .selectDistinct({ eventId: orders.eventId })
          .from(orders)
          .where(and(inArray(orders.eventId, cancelled), inConstants(orders.status, ['held', 'issued'])))
          .all()
          .map((row) => row.eventId),
      )
      return cancelled.filter((id) => open.has(id))
    },

    /** Availability and attendees for the catalogue's event views, loaded once per list. */
    eventExtras: ((eventIds) => {
      if (eventIds.length === 0) return noExtras
      const taken = db
        .select({
          ticketTypeId: inventory.ticketTypeId,
          taken: sql<number>`${inventory.held} + ${inventory.sold}`,
        })
        .from(inventory)
        .where(inArray(inventory.eventId, eventIds))
        .all()
      return extrasOf(
        withLines(taken, waitlist.lines(taken.map((row) => row.ticketTypeId))),
        db
          .select({ eventId: orders.eventId, ownerId: orders.ownerId })
          .from(orders)
          .where(and(inArray(orders.eventId, eventIds), equalsConstant(orders.status, 'issued')))
          .all(),
      )
    }) satisfies EventExtras,

    byId: (orderId: string): OrderRow | undefined => byId.get({ id: orderId }),

    /** The buyer's unpaid holds for an event (a new checkout for it replaces them). */
    heldBy: (buyerId: string, eventId: string): OrderRow[] => heldByBuyer.all({ buyerId, eventId }),
    /** Tickets of an event issued to orders this buyer placed and did not cancel. */
    seatsIssuedTo: (buyerId: string, eventId: string): number =>
      issuedToBuyer.get({ buyerId, eventId })?.seats ?? 0,
    /** Unpaid seats of an event held from one client address (by its keyed hash). */
    seatsHeldFrom: (clientKey: string, eventId: string): number =>
      heldFromClient.get({ clientKey, eventId })?.seats ?? 0,
    byProviderOrderId: (providerOrderId: string): OrderRow | undefined =>
      byProviderOrderId.get({ id: providerOrderId }),

    /** The tickets someone holds now (issued to them or transferred to them, not cancelled). */
    ticketsOf: (accountId: string): OrderRow[] =>
      db
        .select()
        .from(orders)
        .where(and(eq(orders.ownerId, accountId), equalsConstant(orders.status, 'issued')))
        .orderBy(desc(orders.createdAt))
        .all(),

    /** The tickets someone held when they were cancelled, the latest cancelled first, at most `limit`. */
    cancelledTicketsOf: (accountId: string, limit: number): OrderRow[] =>
      db
        .select()
        .from(orders)
        .where(and(eq(orders.ownerId, accountId), equalsConstant(orders.status, 'cancelled')))
        .orderBy(desc(orders.cancelledAt), desc(orders.id))
        .limit(limit)
        .all(),
    /** one person's valid tickets to one event (the organizer's attendee list refunds from it) */
    ticketsAt: (eventId: string, accountId: string): OrderRow[] =>
      db
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.ownerId, accountId),
            eq(orders.eventId, eventId),
            equalsConstant(orders.status, 'issued'),
          ),
        )
        .orderBy(asc(orders.createdAt))
        .all(),

    isAttendeeOf: (organizerId: string, accountId: string): boolean =>
      db
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(
            eq(orders.organizerId, organizerId),
            eq(orders.ownerId, accountId),
            equalsConstant(orders.status, 'issued'),
          ),
        )
        .get() !== undefined,

    /** The best payment status of someone's orders (one organizer's events, or any), for attendee
     * lookups: Completed when they hold any valid ticket, not whatever their latest order did. */
    bestPaymentStatus: (accountId: string, organizerId?: string): PaymentStatus | null =>
      bestPaymentStatuses([accountId], organizerId).get(accountId) ?? null,
    bestPaymentStatuses,

    /** Issued tickets of some events, a page at a time in id order (for long exports). */
    issuedPage: (eventIds: string[], afterId: string, limit: number): OrderRow[] =>
      eventIds.length === 0
        ? []
        : db
            .select()
            .from(orders)
            .where(
              and(
                inArray(orders.eventId, eventIds),
                equalsConstant(orders.status, 'issued'),
                gt(orders.id, afterId),
              ),
            )
            .orderBy(asc(orders.id))
            .limit(limit)
            .all(),

    /** The accounts holding tickets to an event now. */
    attendeeIds: (eventId: string): string[] =>
      db
        .selectDistinct({ ownerId: orders.ownerId })
        .from(orders)
        .where(and(eq(orders.eventId, eventId), equalsConstant(orders.status, 'issued')))
        .all()
        .flatMap((r) => (r.ownerId ? [r.ownerId] : [])),

    /** Orders released without a captured payment (given up, replaced, lapsed) whose hold ran
     * until `since` or later: a payment the provider accepted for one may still be unconfirmed. */
    releasedUnpaid: (since: string): OrderRow[] =>
      db
        .select()
        .from(orders)
        .where(
          and(
            inConstants(orders.status, ['failed', 'expired']),
            isNull(orders.paymentId),
            gte(orders.heldUntil, since),
            ne(orders.provider, 'free'),
          ),
        )
        .all(),

    /** Every hold still waiting for its payment. */
    openHolds: (): OrderRow[] => db.select().from(orders).where(equalsConstant(orders.status, 'held')).all(),

    /** Orders with a refund asked for and not yet paid out. */
    refundsOwed: (): OrderRow[] => db.select().from(orders).where(eq(orders.refund, 'requested')).all(),

    /** A promo code of an event (upper-case) with its uses, or null (issue 17). */
    promoCode: (eventId: string, code: string): PromoTerms | null => {
      const row = promoOne.get({ eventId, code })
      return row ? promoTerms(row) : null
    },
    /** An event's promo codes, oldest first. */
    promoCodesOf: (eventId: string): PromoTerms[] => promoAll.all({ eventId }).map(promoTerms),

    /** Holds whose time is up but which no fact has released yet. */
    lapsedHolds: (now: string, ticketTypeId?: string): OrderRow[] =>
      ticketTypeId ? lapsedOfType.all({ now, ticketTypeId }) : lapsed.all({ now }),
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

/** what other areas' projections read of an order: only the columns they fold */
export type OrderSummary = Pick<
  OrderRow,
  'eventId' | 'organizerId' | 'ticketTypeId' | 'ticketType' | 'quantity' | 'amountPaise'
>

/**
 * An order's summary by id, for the analytics and check-in projections (run for every sale, and a
 * million times in a rebuild). Reading the whole row mapped its 23 columns each time: about a sixth
 * of a rebuild's time went to that (issue 18's profile of `ledger:rebuild`).
 */
export function orderSummaries(db: Db, replaying?: Replaying) {
  // during a rebuild's replay, booking holds the orders in memory
  const held = heldOrders(replaying)
  if (held) return { summary: (orderId: string): OrderSummary | undefined => held(orderId) }
  const summary = db
    .select({
      eventId: orders.eventId,
      organizerId: orders.organizerId,
      ticketTypeId: orders.ticketTypeId,
      ticketType: orders.ticketType,
      quantity: orders.quantity,
      amountPaise: orders.amountPaise,
    })
    .from(orders)
    .where(eq(orders.id, sql.placeholder('id')))
    .prepare()
  return { summary: (orderId: string): OrderSummary | undefined => summary.get({ id: orderId }) }
}

/** how a projection of another area reads orders: booking's summaries over its own connection */
export type OrderReader = (db: Db, replaying?: Replaying) => ReturnType<typeof orderSummaries>

/** the SQLite reads as they answer, at once */
export type BookingQueriesNow = ReturnType<typeof bookingQueries>
/** the reads on either store, awaited (db/store.ts) */
export type BookingQueries = AsyncQueries<BookingQueriesNow>
