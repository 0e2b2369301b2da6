// Reads of the booking area: availability, orders and tickets, attendees.
import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm'
import type { EventExtras } from '../catalog/queries.ts'
import type { Db } from '../db/connection.ts'
import type { AsyncQueries } from '../db/store.ts'
import { extrasOf, noExtras } from './extras.ts'
import { heldByClient, inventory, orders, type PaymentStatus } from './tables.ts'

export type OrderRow = typeof orders.$inferSelect

/** Best first: a valid ticket, then a payment awaited, then a ticket cancelled, then a failed payment. */
const paymentRank: Record<PaymentStatus, number> = { Completed: 0, Pending: 1, Cancelled: 2, Failed: 3 }
const byRank = Object.fromEntries(
  Object.entries(paymentRank).map(([status, rank]) => [rank, status]),
) as Record<number, PaymentStatus>

export function bookingQueries(db: Db) {
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

  const taken = db
    .select({ held: inventory.held, sold: inventory.sold })
    .from(inventory)
    .where(eq(inventory.ticketTypeId, sql.placeholder('id')))
    .prepare()
  const seatsTaken = (ticketTypeId: string) => {
    const row = taken.get({ id: ticketTypeId })
    return (row?.held ?? 0) + (row?.sold ?? 0)
  }
  const byProviderOrderId = db
    .select()
    .from(orders)
    .where(eq(orders.providerOrderId, sql.placeholder('id')))
    .prepare()
  const lapsed = db
    .select()
    .from(orders)
    .where(and(eq(orders.status, 'held'), lte(orders.heldUntil, sql.placeholder('now'))))
    .prepare()
  const lapsedOfType = db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.status, 'held'),
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
        eq(orders.status, 'held'),
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
        eq(orders.status, 'issued'),
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
    /** capacity − sold − held: what can still be booked right now */
    available: (ticketType: { id: string; quantity: number }) =>
      ticketType.quantity - seatsTaken(ticketType.id),

    /** Availability and attendees for the catalogue's event views, loaded once per list. */
    eventExtras: ((eventIds) => {
      if (eventIds.length === 0) return noExtras
      return extrasOf(
        db
          .select()
          .from(inventory)
          .where(inArray(inventory.eventId, eventIds))
          .all()
          .map((row) => ({ ticketTypeId: row.ticketTypeId, taken: row.held + row.sold })),
        db
          .select({ eventId: orders.eventId, ownerId: orders.ownerId })
          .from(orders)
          .where(and(inArray(orders.eventId, eventIds), eq(orders.status, 'issued')))
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
        .where(and(eq(orders.ownerId, accountId), eq(orders.status, 'issued')))
        .orderBy(desc(orders.createdAt))
        .all(),

    isAttendeeOf: (organizerId: string, accountId: string): boolean =>
      db
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(
            eq(orders.organizerId, organizerId),
            eq(orders.ownerId, accountId),
            eq(orders.status, 'issued'),
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
              and(inArray(orders.eventId, eventIds), eq(orders.status, 'issued'), gt(orders.id, afterId)),
            )
            .orderBy(asc(orders.id))
            .limit(limit)
            .all(),

    /** The accounts holding tickets to an event now. */
    attendeeIds: (eventId: string): string[] =>
      db
        .selectDistinct({ ownerId: orders.ownerId })
        .from(orders)
        .where(and(eq(orders.eventId, eventId), eq(orders.status, 'issued')))
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
            inArray(orders.status, ['failed', 'expired']),
            isNull(orders.paymentId),
            gte(orders.heldUntil, since),
            ne(orders.provider, 'free'),
          ),
        )
        .all(),

    /** Every hold still waiting for its payment. */
    openHolds: (): OrderRow[] => db.select().from(orders).where(eq(orders.status, 'held')).all(),

    /** Orders with a refund asked for and not yet paid out. */
    refundsOwed: (): OrderRow[] => db.select().from(orders).where(eq(orders.refund, 'requested')).all(),

    /** Holds whose time is up but which no fact has released yet. */
    lapsedHolds: (now: string, ticketTypeId?: string): OrderRow[] =>
      ticketTypeId ? lapsedOfType.all({ now, ticketTypeId }) : lapsed.all({ now }),
  }
}

/** the SQLite reads as they answer, at once */
export type BookingQueriesNow = ReturnType<typeof bookingQueries>
/** the reads on either store, awaited (db/store.ts) */
export type BookingQueries = AsyncQueries<BookingQueriesNow>
