// Folds the facts the door cares about into its read models, on either store: a ticket issued gets
// one pass per admission, a transfer moves them to the next version (and the new owner), a cancel
// voids them; admissions and double entries from the door's own facts; the invitations to its door
// staff from the event's stream.
// The ticket type's name is read from booking's order (booking's reads, handed in by the
// composition root: onSqlite/onPostgres's readsOf), which the booking projection has brought up to
// date for this fact.
import { sql } from 'drizzle-orm'
import type { BookingFact } from '../booking/facts.ts'
import type { OrderSummary } from '../booking/queries.ts'
import type { CatalogFact } from '../catalog/facts.ts'
import { statement } from '../db/sql.ts'
import { type Awaitable, wait } from '../db/store.ts'
import { readProjection } from '../ledger/read-projection.ts'
import { admissions, admissionsByMinute, doorInvitations, doubleEntries, passes } from './tables.ts'

/** what the door reads of booking: an order's summary, as booking's read model has it now */
export type OrderSummaries = { summary(orderId: string): Awaitable<OrderSummary | undefined> }

const ignore = () => {}
/** 'YYYY-MM-DDTHH:MM' (UTC) of an ISO instant */
export const minuteOf = (at: string) => new Date(at).toISOString().slice(0, 16)

/** a ticket's passes, one per admission 1..quantity, of its first version */
const insertPasses = statement<{
  orderId: string
  eventId: string
  ticketTypeId: string
  ticketType: string
  ownerId: string
  quantity: number
}>(
  (p) => sql`WITH RECURSIVE admitted (admission) AS (
      SELECT 1 UNION ALL SELECT admission + 1 FROM admitted WHERE admission < ${p.quantity})
    INSERT INTO passes (id, event_id, order_id, ticket_type_id, ticket_type, admission, version, owner_id,
      status, admitted_at, device)
    SELECT CAST(${p.orderId} AS text) || '.' || admission || '.0', ${p.eventId}, ${p.orderId},
      ${p.ticketTypeId}, ${p.ticketType}, admission, 0, ${p.ownerId}, 'valid', NULL, NULL
    FROM admitted`,
)

const nextVersion = statement<{ orderId: string; ownerId: string }>(
  (p) => sql`UPDATE passes SET id = order_id || '.' || admission || '.' || (version + 1),
      version = version + 1, owner_id = ${p.ownerId}
    WHERE order_id = ${p.orderId}`,
)

const voidAll = statement<{ orderId: string }>(
  (p) => sql`UPDATE passes SET status = 'void' WHERE order_id = ${p.orderId}`,
)

const admit = statement<{ orderId: string; admission: number; admittedAt: string; device: string }>(
  (p) => sql`UPDATE passes SET status = 'admitted', admitted_at = ${p.admittedAt}, device = ${p.device}
    WHERE order_id = ${p.orderId} AND admission = ${p.admission}`,
)

const countType = statement<{ eventId: string; ticketTypeId: string }>(
  (p) =>
    sql`INSERT INTO admissions (event_id, ticket_type_id, admitted) VALUES (${p.eventId}, ${p.ticketTypeId}, 1)
    ON CONFLICT (event_id, ticket_type_id) DO UPDATE SET admitted = admissions.admitted + 1`,
)

const countMinute = statement<{ eventId: string; minute: string }>(
  (p) =>
    sql`INSERT INTO admissions_by_minute (event_id, minute, admitted) VALUES (${p.eventId}, ${p.minute}, 1)
    ON CONFLICT (event_id, minute) DO UPDATE SET admitted = admissions_by_minute.admitted + 1`,
)

const insertDouble = statement<{
  scanId: string
  eventId: string
  orderId: string
  admission: number
  passId: string
  device: string
  scannedAt: string
  firstDevice: string
  firstAdmittedAt: string
}>(
  (p) => sql`INSERT INTO double_entries (scan_id, event_id, order_id, admission, pass_id, device, scanned_at,
      first_device, first_admitted_at)
    VALUES (${p.scanId}, ${p.eventId}, ${p.orderId}, ${p.admission}, ${p.passId}, ${p.device}, ${p.scannedAt},
      ${p.firstDevice}, ${p.firstAdmittedAt})`,
)

/** an invitation sent again keeps the time it was first sent */
const invite = statement<{
  invitationId: string
  eventId: string
  email: string | null
  accountId: string | null
  at: string
}>(
  (p) =>
    sql`INSERT INTO door_invitations (invitation_id, event_id, email, account_id, status, invited_at, accepted_at)
    VALUES (${p.invitationId}, ${p.eventId}, ${p.email}, ${p.accountId}, 'invited', ${p.at}, NULL)
    ON CONFLICT DO NOTHING`,
)

const acceptInvitation = statement<{ invitationId: string; accountId: string; at: string }>(
  (p) =>
    sql`UPDATE door_invitations SET status = 'accepted', account_id = ${p.accountId}, accepted_at = ${p.at}
    WHERE invitation_id = ${p.invitationId}`,
)

const removeInvitation = statement<{ invitationId: string }>(
  (p) => sql`DELETE FROM door_invitations WHERE invitation_id = ${p.invitationId}`,
)

export const checkinProjection = readProjection<BookingFact | CatalogFact, OrderSummaries>({
  name: 'checkin',
  tables: [passes, doubleEntries, admissions, admissionsByMinute, doorInvitations],
  after: ['booking'],
  handlers: {
    *TicketsIssued(fact, x, orders) {
      const d = fact.data
      const order = yield* wait(orders.summary(d.orderId))
      if (!order) throw new Error(`order ${d.orderId} is missing from the read model`)
      yield* wait(
        x.run(insertPasses, {
          orderId: d.orderId,
          eventId: d.eventId,
          ticketTypeId: d.ticketTypeId,
          ticketType: order.ticketType,
          ownerId: d.ownerId,
          quantity: d.quantity,
        }),
      )
    },
    TicketTransferred: (fact, x) =>
      x.run(nextVersion, { orderId: fact.data.orderId, ownerId: fact.data.toId }),
    TicketCancelled: (fact, x) => x.run(voidAll, { orderId: fact.data.orderId }),
    *PassAdmitted(fact, x) {
      const d = fact.data
      yield* wait(
        x.run(admit, {
          orderId: d.orderId,
          admission: d.admission,
          admittedAt: d.admittedAt,
          device: d.device,
        }),
      )
      yield* wait(x.run(countType, { eventId: d.eventId, ticketTypeId: d.ticketTypeId }))
      yield* wait(x.run(countMinute, { eventId: d.eventId, minute: minuteOf(d.admittedAt) }))
    },
    PassScanRefused(fact, x) {
      const d = fact.data
      return x.run(insertDouble, {
        scanId: d.scanId,
        eventId: d.eventId,
        orderId: d.orderId,
        admission: d.admission,
        passId: `${d.orderId}.${d.admission}.${d.version}`,
        device: d.device,
        scannedAt: d.scannedAt,
        firstDevice: d.firstDevice,
        firstAdmittedAt: d.firstAdmittedAt,
      })
    },
    // made for an account before invitations existed: its id is the account's, to be accepted
    DoorStaffAdded(fact, x) {
      const { eventId, accountId } = fact.data
      return x.run(invite, { invitationId: accountId, eventId, email: null, accountId, at: fact.at })
    },
    DoorStaffInvited(fact, x) {
      const { invitationId, eventId, email } = fact.data
      return x.run(invite, { invitationId, eventId, email, accountId: null, at: fact.at })
    },
    DoorStaffAccepted(fact, x) {
      const { invitationId, accountId } = fact.data
      return x.run(acceptInvitation, { invitationId, accountId, at: fact.at })
    },
    DoorStaffRemoved: (fact, x) => x.run(removeInvitation, { invitationId: fact.data.invitationId }),
    TicketsHeld: ignore,
    InvoiceIssued: ignore,
    CreditNoteIssued: ignore,
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
    SeatMapPlaced: ignore,
    EventCancelled: ignore,
  },
})
