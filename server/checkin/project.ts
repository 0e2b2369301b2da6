// Folds the facts the door cares about into its read models: a ticket issued gets one pass per
// admission, a transfer moves them to the next version (and the new owner), a cancel voids them;
// admissions and double entries from the door's own facts; the invitations to its door staff from
// the event's stream.
// The ticket type's name is read from booking's order (booking's queries, handed in by the
// composition root), which the booking projection has brought up to date for this fact.
import { and, eq, sql } from 'drizzle-orm'
import type { BookingFact } from '../booking/facts.ts'
import type { OrderReader } from '../booking/queries.ts'
import type { CatalogFact } from '../catalog/facts.ts'
import { projection } from '../ledger/ledger.ts'
import {
  admissions,
  admissionsByMinute,
  doorInvitations,
  doubleEntries,
  type PassStatus,
  passes,
} from './tables.ts'

const p = sql.placeholder
const ignore = () => {}
/** 'YYYY-MM-DDTHH:MM' (UTC) of an ISO instant */
export const minuteOf = (at: string) => new Date(at).toISOString().slice(0, 16)

export const checkinProjection = (ordersOf: OrderReader) =>
  projection<BookingFact | CatalogFact>({
    name: 'checkin',
    tables: [passes, doubleEntries, admissions, admissionsByMinute, doorInvitations],
    after: ['booking'],
    handlers(db, replaying) {
      const booking = ordersOf(db, replaying)
      // Every pass of the ledger is inserted again by a rebuild's replay (two of every three rows it
      // writes): a plain positional statement, without drizzle's fill of named values.
      const insertPass = db.$client.prepare<
        [string, string, string, string, string, number, string, PassStatus]
      >(
        `INSERT INTO passes (id, event_id, order_id, ticket_type_id, ticket_type, admission, version,
           owner_id, status, admitted_at, device)
         VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, NULL, NULL)`,
      )
      const nextVersion = db
        .update(passes)
        .set({
          id: sql`${passes.orderId} || '.' || ${passes.admission} || '.' || (${passes.version} + 1)`,
          version: sql`${passes.version} + 1`,
          ownerId: sql`${p('ownerId')}`,
        })
        .where(eq(passes.orderId, p('orderId')))
        .prepare()
      const voidAll = db
        .update(passes)
        .set({ status: 'void' })
        .where(eq(passes.orderId, p('orderId')))
        .prepare()
      const admit = db
        .update(passes)
        .set({ status: 'admitted', admittedAt: sql`${p('admittedAt')}`, device: sql`${p('device')}` })
        .where(and(eq(passes.orderId, p('orderId')), eq(passes.admission, p('admission'))))
        .prepare()
      const countType = db
        .insert(admissions)
        .values({ eventId: p('eventId'), ticketTypeId: p('ticketTypeId'), admitted: 1 })
        .onConflictDoUpdate({
          target: [admissions.eventId, admissions.ticketTypeId],
          set: { admitted: sql`${admissions.admitted} + 1` },
        })
        .prepare()
      const countMinute = db
        .insert(admissionsByMinute)
        .values({ eventId: p('eventId'), minute: p('minute'), admitted: 1 })
        .onConflictDoUpdate({
          target: [admissionsByMinute.eventId, admissionsByMinute.minute],
          set: { admitted: sql`${admissionsByMinute.admitted} + 1` },
        })
        .prepare()
      const insertDouble = db
        .insert(doubleEntries)
        .values({
          scanId: p('scanId'),
          eventId: p('eventId'),
          orderId: p('orderId'),
          admission: p('admission'),
          passId: p('passId'),
          device: p('device'),
          scannedAt: p('scannedAt'),
          firstDevice: p('firstDevice'),
          firstAdmittedAt: p('firstAdmittedAt'),
        })
        .prepare()
      // an invitation sent again keeps the time it was first sent
      const invite = db
        .insert(doorInvitations)
        .values({
          invitationId: p('invitationId'),
          eventId: p('eventId'),
          email: p('email'),
          accountId: p('accountId'),
          status: 'invited',
          invitedAt: p('at'),
        })
        .onConflictDoNothing()
        .prepare()
      const acceptInvitation = db
        .update(doorInvitations)
        .set({ status: 'accepted', accountId: sql`${p('accountId')}`, acceptedAt: sql`${p('at')}` })
        .where(eq(doorInvitations.invitationId, p('invitationId')))
        .prepare()
      const removeInvitation = db
        .delete(doorInvitations)
        .where(eq(doorInvitations.invitationId, p('invitationId')))
        .prepare()

      return {
        TicketsIssued(fact) {
          const d = fact.data
          const order = booking.summary(d.orderId)
          if (!order) throw new Error(`order ${d.orderId} is missing from the read model`)
          for (let admission = 1; admission <= d.quantity; admission++) {
            insertPass.run(
              `${d.orderId}.${admission}.0`,
              d.eventId,
              d.orderId,
              d.ticketTypeId,
              order.ticketType,
              admission,
              d.ownerId,
              'valid',
            )
          }
        },
        TicketTransferred(fact) {
          nextVersion.run({ orderId: fact.data.orderId, ownerId: fact.data.toId })
        },
        TicketCancelled(fact) {
          voidAll.run({ orderId: fact.data.orderId })
        },
        PassAdmitted(fact) {
          const d = fact.data
          admit.run({
            orderId: d.orderId,
            admission: d.admission,
            admittedAt: d.admittedAt,
            device: d.device,
          })
          countType.run({ eventId: d.eventId, ticketTypeId: d.ticketTypeId })
          countMinute.run({ eventId: d.eventId, minute: minuteOf(d.admittedAt) })
        },
        PassScanRefused(fact) {
          const d = fact.data
          insertDouble.run({
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
        DoorStaffAdded(fact) {
          const { eventId, accountId } = fact.data
          invite.run({ invitationId: accountId, eventId, email: null, accountId, at: fact.at })
        },
        DoorStaffInvited(fact) {
          const { invitationId, eventId, email } = fact.data
          invite.run({ invitationId, eventId, email, accountId: null, at: fact.at })
        },
        DoorStaffAccepted(fact) {
          const { invitationId, accountId } = fact.data
          acceptInvitation.run({ invitationId, accountId, at: fact.at })
        },
        DoorStaffRemoved(fact) {
          removeInvitation.run({ invitationId: fact.data.invitationId })
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
    },
  })
