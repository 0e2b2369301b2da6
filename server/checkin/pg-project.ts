// The door's projection on PostgreSQL (issue 15): project.ts's rows for the same facts, written in
// the append's transaction, one statement per fact. The ticket type's name is read from booking's
// order through booking's queries on the same transaction (this projection runs after booking's).
import type { BookingFact } from '../booking/facts.ts'
import type { PgBookingQueries } from '../booking/pg-queries.ts'
import type { CatalogFact } from '../catalog/facts.ts'
import type { StoredFact } from '../ledger/ledger.ts'
import type { PgProjection, PgTx } from '../ledger/pg-ledger.ts'
import { minuteOf } from './project.ts'

type Handlers = {
  [T in (BookingFact | CatalogFact)['type']]: (
    fact: StoredFact<Extract<BookingFact | CatalogFact, { type: T }>>,
    tx: PgTx,
  ) => Promise<void>
}

/** an invitation sent again keeps the time it was first sent */
const invite = `INSERT INTO door_invitations (invitation_id, event_id, email, account_id, status, invited_at, accepted_at)
  VALUES ($1, $2, $3, $4, 'invited', $5, NULL) ON CONFLICT DO NOTHING`

export const pgCheckinProjection = (ordersOf: (tx: PgTx) => Pick<PgBookingQueries, 'byId'>): PgProjection => {
  const ignore = async () => {}
  const handlers: Handlers = {
    async TicketsIssued(fact, tx) {
      const d = fact.data
      const order = await ordersOf(tx).byId(d.orderId)
      if (!order) throw new Error(`order ${d.orderId} is missing from the read model`)
      await tx.query(
        `INSERT INTO passes (id, event_id, order_id, ticket_type_id, ticket_type, admission, version, owner_id,
           status, admitted_at, device)
         SELECT $1::text || '.' || a || '.0', $2, $1, $3, $4, a, 0, $5, 'valid', NULL, NULL
         FROM generate_series(1, $6::int) AS a`,
        [d.orderId, d.eventId, d.ticketTypeId, order.ticketType, d.ownerId, d.quantity],
      )
    },
    async TicketTransferred(fact, tx) {
      await tx.query(
        `UPDATE passes SET id = order_id || '.' || admission || '.' || (version + 1), version = version + 1,
           owner_id = $2 WHERE order_id = $1`,
        [fact.data.orderId, fact.data.toId],
      )
    },
    async TicketCancelled(fact, tx) {
      await tx.query(`UPDATE passes SET status = 'void' WHERE order_id = $1`, [fact.data.orderId])
    },
    async PassAdmitted(fact, tx) {
      const d = fact.data
      await tx.query(
        `WITH p AS (
           UPDATE passes SET status = 'admitted', admitted_at = $3, device = $4
           WHERE order_id = $1 AND admission = $2),
         t AS (
           INSERT INTO admissions (event_id, ticket_type_id, admitted) VALUES ($5, $6, 1)
           ON CONFLICT (event_id, ticket_type_id) DO UPDATE SET admitted = admissions.admitted + 1)
         INSERT INTO admissions_by_minute (event_id, minute, admitted) VALUES ($5, $7, 1)
         ON CONFLICT (event_id, minute) DO UPDATE SET admitted = admissions_by_minute.admitted + 1`,
        [d.orderId, d.admission, d.admittedAt, d.device, d.eventId, d.ticketTypeId, minuteOf(d.admittedAt)],
      )
    },
    async PassScanRefused(fact, tx) {
      const d = fact.data
      await tx.query(
        `INSERT INTO double_entries (scan_id, event_id, order_id, admission, pass_id, device, scanned_at,
           first_device, first_admitted_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          d.scanId,
          d.eventId,
          d.orderId,
          d.admission,
          `${d.orderId}.${d.admission}.${d.version}`,
          d.device,
          d.scannedAt,
          d.firstDevice,
          d.firstAdmittedAt,
        ],
      )
    },
    async DoorStaffAdded(fact, tx) {
      const { eventId, accountId } = fact.data
      await tx.query(invite, [accountId, eventId, null, accountId, fact.at])
    },
    async DoorStaffInvited(fact, tx) {
      const { invitationId, eventId, email } = fact.data
      await tx.query(invite, [invitationId, eventId, email, null, fact.at])
    },
    async DoorStaffAccepted(fact, tx) {
      await tx.query(
        `UPDATE door_invitations SET status = 'accepted', account_id = $2, accepted_at = $3
         WHERE invitation_id = $1`,
        [fact.data.invitationId, fact.data.accountId, fact.at],
      )
    },
    async DoorStaffRemoved(fact, tx) {
      await tx.query('DELETE FROM door_invitations WHERE invitation_id = $1', [fact.data.invitationId])
    },
    TicketsHeld: ignore,
    PaymentCaptured: ignore,
    PaymentFailed: ignore,
    HoldExpired: ignore,
    RefundRequested: ignore,
    PaymentRefunded: ignore,
    EventSubmitted: ignore,
    EventApproved: ignore,
    EventRejected: ignore,
    PromoCodeCreated: ignore,
    PromoCodeDisabled: ignore,
    EventEdited: ignore,
    EventCancelled: ignore,
  }
  return { name: 'checkin', after: ['booking'], handlers: handlers as PgProjection['handlers'] }
}
