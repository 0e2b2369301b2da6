// Booking's reads on PostgreSQL (issue 15): what queries.ts answers, for the same rows, over any
// reader: the pool, or the PgTx of a decision (the seats left for a hold are read in the hold's own
// transaction, under the ledger's append lock, so they are exact when the hold is decided).
import type pg from 'pg'
import { catalogQueries } from '../catalog/queries.ts'
import { pgSql } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import { promised } from '../db/store.ts'
import type { PgTx } from '../ledger/pg-ledger.ts'
import { waitlistQueries } from '../waitlist/queries.ts'
import { extrasOf, noExtras } from './extras.ts'
import {
  type BookingAreas,
  type BookingQueries,
  type OrderRow,
  promoTerms,
  seatsOnSaleSql,
  withLines,
} from './queries.ts'
import type { PaymentStatus } from './tables.ts'

/** What the reads run on: a transaction of the ledger (PgTx) or the pool (poolReader). */
export type PgReader = Pick<PgTx, 'query'>

/** the pool as a reader: each read a statement of its own */
export const poolReader = (pool: pg.Pool): PgReader => ({
  query: async <R extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    (await pool.query<R>(text, values)).rows,
})

/** an order row as queries.ts reads it (drizzle's camelCase names) */
const order = `id, event_id AS "eventId", organizer_id AS "organizerId", ticket_type_id AS "ticketTypeId",
  ticket_type AS "ticketType", buyer_id AS "buyerId", owner_id AS "ownerId", quantity,
  unit_price_paise AS "unitPricePaise", amount_paise AS "amountPaise", provider,
  provider_order_id AS "providerOrderId", status, payment_status AS "paymentStatus",
  payment_id AS "paymentId", held_until AS "heldUntil", client_key AS "clientKey",
  promo_code AS "promoCode", discount_paise AS "discountPaise", refund,
  cancelled_at AS "cancelledAt", cancelled_by AS "cancelledBy",
  refund_requested_paise AS "refundRequestedPaise", refunded_paise AS "refundedPaise",
  refunded_at AS "refundedAt", issued_at AS "issuedAt", created_at AS "createdAt", updated_at AS "updatedAt"`

/** a promo_codes row as queries.ts reads it */
const promo = `event_id AS "eventId", code, percent_off AS "percentOff", amount_off_paise AS "amountOffPaise",
  ticket_type_ids AS "ticketTypeIds", max_uses AS "maxUses", starts_at AS "startsAt", ends_at AS "endsAt",
  disabled, held, paid, created_at AS "createdAt"`
type PromoRow = Parameters<typeof promoTerms>[0]

const byRank: Record<number, PaymentStatus> = { 0: 'Completed', 1: 'Pending', 2: 'Cancelled', 3: 'Failed' }

/** booking's reads of other areas, through their queries (on the same reader) */
type PgBookingAreas = { [K in keyof BookingAreas]: AsyncQueries<BookingAreas[K]> }

const SEATS_ON_SALE = seatsOnSaleSql('$1', '::int')

export function pgBookingQueries(
  db: PgReader,
  areas: PgBookingAreas = {
    catalog: promised(catalogQueries(pgSql(db))),
    waitlist: promised(waitlistQueries(pgSql(db))),
  },
) {
  const { catalog, waitlist } = areas
  const orders = (where: string, values: unknown[], tail = '') =>
    db.query<OrderRow>(`SELECT ${order} FROM orders WHERE ${where} ${tail}`, values)
  const one = async (where: string, values: unknown[]) => (await orders(where, values))[0]
  const count = async (text: string, values: unknown[]) =>
    (await db.query<{ n: number }>(text, values))[0]?.n ?? 0

  /** Each account's best payment status (queries.ts's bestPaymentStatuses), one query for many. */
  const bestPaymentStatuses = async (
    accountIds: string[],
    organizerId?: string,
  ): Promise<Map<string, PaymentStatus>> => {
    const best = new Map<string, PaymentStatus>()
    if (accountIds.length === 0) return best
    const rows = await db.query<{ person: string; rank: number }>(
      `SELECT coalesce(owner_id, buyer_id) AS person,
         min(CASE payment_status WHEN 'Completed' THEN 0 WHEN 'Pending' THEN 1 WHEN 'Cancelled' THEN 2 ELSE 3 END)
           AS rank
       FROM orders
       WHERE (owner_id = ANY($1::text[]) OR (owner_id IS NULL AND buyer_id = ANY($1::text[])))
         AND ($2::text IS NULL OR organizer_id = $2::text)
       GROUP BY coalesce(owner_id, buyer_id)`,
      [accountIds, organizerId ?? null],
    )
    for (const row of rows) {
      const status = byRank[row.rank]
      if (status) best.set(row.person, status)
    }
    return best
  }

  // The capacity as the event's stream has it now (an edit may change it) less the seats taken.
  // Seats offered to a waiting list are held for those people alone; while anyone waits, seats that
  // come back go to the list, not on sale (queries.ts).
  const onSale = async (ticketTypeId: string) =>
    (await db.query<{ free: number | null; waiting: boolean }>(SEATS_ON_SALE, [ticketTypeId]))[0]

  const queries: AsyncQueries<BookingQueries> = {
    /** capacity − sold − held: what can still be booked right now (exact in the hold's PgTx) */
    available: async (ticketType) => {
      const row = await onSale(ticketType.id)
      return row && !row.waiting ? (row.free ?? 0) : 0
    },
    freeSeats: async (ticketTypeId) => (await onSale(ticketTypeId))?.free ?? 0,
    offeredTo: (accountId, ticketTypeId) => waitlist.offeredTo(accountId, ticketTypeId),
    waiting: async (ticketTypeId) => Boolean((await onSale(ticketTypeId))?.waiting),
    seatsTaken: (ticketTypeId) =>
      count('SELECT held + sold AS n FROM inventory WHERE ticket_type_id = $1', [ticketTypeId]),
    eventCancelled: (eventId) => catalog.cancelled(eventId),
    heldOf: (eventId) => orders("event_id = $1 AND status = 'held'", [eventId]),
    cancelledWithOpenOrders: async () => {
      const cancelled = await catalog.cancelledIds()
      if (cancelled.length === 0) return []
      const open = new Set(
        (
          await db.query<{ eventId: string }>(
            `SELECT DISTINCT event_id AS "eventId" FROM orders
             WHERE event_id = ANY($1::text[]) AND status IN ('held', 'issued')`,
            [cancelled],
          )
        ).map((row) => row.eventId),
      )
      return cancelled.filter((id) => open.has(id))
    },

    /** Availability and attendees for the catalogue's event views, loaded once per list. */
    async eventExtras(eventIds) {
      if (eventIds.length === 0) return noExtras
      const taken = await db.query<{ ticketTypeId: string; taken: number }>(
        `SELECT ticket_type_id AS "ticketTypeId", held + sold AS taken FROM inventory WHERE event_id = ANY($1::text[])`,
        [eventIds],
      )
      return extrasOf(
        withLines(taken, await waitlist.lines(taken.map((row) => row.ticketTypeId))),
        // the order SQLite reads them in: the partial index orders_issued_by_event (event, id)
        await db.query<{ eventId: string; ownerId: string | null }>(
          `SELECT event_id AS "eventId", owner_id AS "ownerId" FROM orders
           WHERE event_id = ANY($1::text[]) AND status = 'issued' ORDER BY event_id, id`,
          [eventIds],
        ),
      )
    },

    byId: (orderId) => one('id = $1', [orderId]),
    heldBy: (buyerId, eventId) =>
      orders("buyer_id = $1 AND event_id = $2 AND status = 'held'", [buyerId, eventId]),
    seatsIssuedTo: (buyerId, eventId) =>
      count(
        `SELECT coalesce(sum(quantity), 0)::int AS n FROM orders
         WHERE buyer_id = $1 AND event_id = $2 AND status = 'issued'`,
        [buyerId, eventId],
      ),
    seatsHeldFrom: (clientKey, eventId) =>
      count('SELECT seats AS n FROM held_by_client WHERE client_key = $1 AND event_id = $2', [
        clientKey,
        eventId,
      ]),
    byProviderOrderId: (providerOrderId) => one('provider_order_id = $1', [providerOrderId]),

    ticketsOf: (accountId) =>
      orders("owner_id = $1 AND status = 'issued'", [accountId], 'ORDER BY created_at DESC'),

    cancelledTicketsOf: (accountId, limit) =>
      orders(
        "owner_id = $1 AND status = 'cancelled'",
        [accountId, limit],
        'ORDER BY cancelled_at DESC NULLS LAST, id DESC LIMIT $2',
      ),
    ticketsAt: (eventId, accountId) =>
      orders(
        "owner_id = $1 AND event_id = $2 AND status = 'issued'",
        [accountId, eventId],
        'ORDER BY created_at',
      ),

    isAttendeeOf: async (organizerId, accountId) =>
      (
        await db.query(
          `SELECT 1 FROM orders WHERE organizer_id = $1 AND owner_id = $2 AND status = 'issued' LIMIT 1`,
          [organizerId, accountId],
        )
      ).length > 0,

    bestPaymentStatus: async (accountId, organizerId) =>
      (await bestPaymentStatuses([accountId], organizerId)).get(accountId) ?? null,
    bestPaymentStatuses,

    // Ids are newId()'s lowercase hex of one length: every collation orders them as SQLite's
    // binary one does, so the primary key's order serves the page.
    issuedPage: async (eventIds, afterId, limit) =>
      eventIds.length === 0
        ? []
        : orders(
            "event_id = ANY($1::text[]) AND status = 'issued' AND id > $2",
            [eventIds, afterId, limit],
            'ORDER BY id LIMIT $3',
          ),

    attendeeIds: async (eventId) =>
      (
        await db.query<{ ownerId: string | null }>(
          `SELECT DISTINCT owner_id AS "ownerId" FROM orders WHERE event_id = $1 AND status = 'issued'`,
          [eventId],
        )
      ).flatMap((r) => (r.ownerId ? [r.ownerId] : [])),

    releasedUnpaid: (since) =>
      orders(
        `status IN ('failed', 'expired') AND payment_id IS NULL AND held_until >= $1 AND provider <> 'free'`,
        [since],
      ),

    openHolds: () => orders("status = 'held'", []),
    refundsOwed: () => orders("refund = 'requested'", []),
    promoCode: async (eventId, code) => {
      const [row] = await db.query<PromoRow>(
        `SELECT ${promo} FROM promo_codes WHERE event_id = $1 AND code = $2`,
        [eventId, code],
      )
      return row ? promoTerms(row) : null
    },
    promoCodesOf: async (eventId) =>
      (
        await db.query<PromoRow>(
          `SELECT ${promo} FROM promo_codes WHERE event_id = $1 ORDER BY created_at, code`,
          [eventId],
        )
      ).map(promoTerms),

    lapsedHolds: (now, ticketTypeId) =>
      ticketTypeId
        ? orders("status = 'held' AND held_until <= $1 AND ticket_type_id = $2", [now, ticketTypeId])
        : orders("status = 'held' AND held_until <= $1", [now]),
  }
  return queries
}

export type PgBookingQueries = ReturnType<typeof pgBookingQueries>
