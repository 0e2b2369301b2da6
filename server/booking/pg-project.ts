// Booking's projection on PostgreSQL (issue 15): the rows project.ts writes, for every fact, written
// in the append's transaction. Each fact is one statement (data-modifying CTEs): a hold's order row,
// its ticket type's seats and its address's unpaid seats go in one round trip.
import type { StoredFact } from '../ledger/ledger.ts'
import type { PgProjection, PgTx } from '../ledger/pg-ledger.ts'
import type { BookingFact } from './facts.ts'
import { cancelledBy } from './tables.ts'

type Handlers = {
  [T in BookingFact['type']]: (fact: StoredFact<Extract<BookingFact, { type: T }>>, tx: PgTx) => Promise<void>
}

/** adds held and sold seats to a ticket type's row, creating it on first use (project.ts's adjust) */
const adjust = `INSERT INTO inventory (ticket_type_id, event_id, held, sold)`
const adjusted = `ON CONFLICT (ticket_type_id) DO UPDATE
  SET held = inventory.held + excluded.held, sold = inventory.sold + excluded.sold`
/** seats a client address holds unpaid for an event; holds without a key (null or '') count none */
const clientHolds = 'INSERT INTO held_by_client (client_key, event_id, seats)'
const clientHeld = `ON CONFLICT (client_key, event_id) DO UPDATE SET seats = held_by_client.seats + excluded.seats`

/** An order that stopped waiting for its payment gives its held seats back. */
async function released(tx: PgTx, orderId: string, status: 'failed' | 'expired', at: string) {
  const [row] = await tx.query<{ found: number }>(
    `WITH o AS (
       UPDATE orders SET status = $2, payment_status = 'Failed', updated_at = $3 WHERE id = $1
       RETURNING ticket_type_id, event_id, quantity, client_key, promo_code),
     i AS (${adjust} SELECT ticket_type_id, event_id, -quantity, 0 FROM o ${adjusted}),
     c AS (${clientHolds} SELECT client_key, event_id, -quantity FROM o WHERE client_key <> '' ${clientHeld})
     SELECT count(*)::int AS found FROM o`,
    [orderId, status, at],
  )
  if (!row?.found) throw new Error(`order ${orderId} is missing from the read model`)
}

const handlers: Handlers = {
  async TicketsHeld(fact, tx) {
    const d = fact.data
    await tx.query(
      `WITH o AS (
         INSERT INTO orders (id, event_id, organizer_id, ticket_type_id, ticket_type, buyer_id, owner_id,
           quantity, unit_price_paise, amount_paise, provider, provider_order_id, status, payment_status,
           held_until, client_key, promo_code, discount_paise, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $8, $9, $10, $11, 'held', 'Pending', $12, $13, $15, $16, $14, $14)),
       i AS (${adjust} VALUES ($4, $2, $7, 0) ${adjusted})
       ${clientHolds} SELECT $13::text, $2::text, $7::int WHERE $13::text <> '' ${clientHeld}`,
      [
        d.orderId,
        d.eventId,
        d.organizerId,
        d.ticketTypeId,
        d.ticketType,
        d.buyerId,
        d.quantity,
        d.unitPricePaise,
        d.amountPaise,
        d.provider,
        d.providerOrderId,
        d.heldUntil,
        d.clientKey ?? null,
        fact.at,
        d.promoCode ?? null,
        d.discountPaise ?? 0,
      ],
    )
  },
  async PaymentCaptured(fact, tx) {
    await tx.query('UPDATE orders SET payment_id = $2, updated_at = $3 WHERE id = $1', [
      fact.data.orderId,
      fact.data.paymentId,
      fact.at,
    ])
  },
  async TicketsIssued(fact, tx) {
    const d = fact.data
    // A live hold stops being unpaid and turns into a sale; a lapsed one gave its seats (and its
    // address's count) back when it was released.
    await tx.query(
      `WITH o AS (
         UPDATE orders SET status = 'issued', payment_status = 'Completed', owner_id = $2, issued_at = $3,
           updated_at = $3 WHERE id = $1 RETURNING client_key, event_id, promo_code),
       c AS (${clientHolds} SELECT client_key, $4::text, -$6::int FROM o WHERE NOT $7::boolean AND client_key <> ''
         ${clientHeld})
       ${adjust} VALUES ($5, $4, CASE WHEN $7::boolean THEN 0 ELSE -$6::int END, $6) ${adjusted}`,
      [d.orderId, d.ownerId, fact.at, d.eventId, d.ticketTypeId, d.quantity, d.afterExpiry],
    )
  },
  PaymentFailed: (fact, tx) => released(tx, fact.data.orderId, 'failed', fact.at),
  HoldExpired: (fact, tx) => released(tx, fact.data.orderId, 'expired', fact.at),
  async TicketCancelled(fact, tx) {
    const d = fact.data
    await tx.query(
      `WITH o AS (
         UPDATE orders SET status = 'cancelled', payment_status = 'Cancelled', cancelled_at = $2,
           cancelled_by = $6, updated_at = $2 WHERE id = $1)
       ${adjust} VALUES ($3, $4, 0, -$5::int) ${adjusted}`,
      [d.orderId, fact.at, d.ticketTypeId, d.eventId, d.quantity, cancelledBy(d)],
    )
  },
  async TicketTransferred(fact, tx) {
    await tx.query('UPDATE orders SET owner_id = $2, updated_at = $3 WHERE id = $1', [
      fact.data.orderId,
      fact.data.toId,
      fact.at,
    ])
  },
  async RefundRequested(fact, tx) {
    await tx.query(
      `UPDATE orders SET refund = 'requested', refund_requested_paise = refund_requested_paise + $3,
         updated_at = $2 WHERE id = $1`,
      [fact.data.orderId, fact.at, fact.data.amountPaise],
    )
  },
  async PaymentRefunded(fact, tx) {
    await tx.query(
      `UPDATE orders SET refund = 'refunded', refunded_paise = refunded_paise + $3, refunded_at = $2,
         updated_at = $2 WHERE id = $1`,
      [fact.data.orderId, fact.at, fact.data.amountPaise],
    )
  },
  // the door's facts change no order: the check-in area keeps the passes (checkin/pg-project.ts)
  async PassAdmitted() {},
  async PassScanRefused() {},
}

export const pgBookingProjection: PgProjection = {
  name: 'booking',
  handlers: handlers as PgProjection['handlers'],
}
