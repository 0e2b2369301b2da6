// Reads of the door's read models: a ticket's passes, an event's passes for the manifest, its
// admission figures and double entries, and the invitations to door staff (an event's, an account's).
import { and, asc, desc, eq, ne, or, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import type { AsyncQueries } from '../db/store.ts'
import { admissions, admissionsByMinute, doorInvitations, doubleEntries, passes } from './tables.ts'

export type PassRow = typeof passes.$inferSelect
/** a pass as the manifest lists it */
export type ListedPassRow = Pick<
  PassRow,
  'id' | 'orderId' | 'admission' | 'version' | 'status' | 'admittedAt' | 'ticketTypeId' | 'ownerId'
>
/** a double entry with the ticket's holder now */
export type DoubleEntryRow = typeof doubleEntries.$inferSelect & { ownerId: string | null }
export type DoorInvitationRow = typeof doorInvitations.$inferSelect

/** the most invitations an account's list shows (the latest) */
export const INVITATIONS_LISTED = 200

/** the most double entries a summary lists (the latest): a push stays small however many there are */
export const DOUBLE_ENTRIES_LISTED = 500

export function checkinQueries(db: Db) {
  const ofTicket = db
    .select()
    .from(passes)
    .where(eq(passes.orderId, sql.placeholder('orderId')))
    .orderBy(asc(passes.admission))
    .prepare()
  const ofEvent = db
    .select({
      id: passes.id,
      orderId: passes.orderId,
      admission: passes.admission,
      version: passes.version,
      status: passes.status,
      admittedAt: passes.admittedAt,
      ticketTypeId: passes.ticketTypeId,
      ownerId: passes.ownerId,
    })
    .from(passes)
    .where(eq(passes.eventId, sql.placeholder('eventId')))
    .orderBy(asc(passes.id))
    .prepare()
  const staff = db
    .select({ invitationId: doorInvitations.invitationId })
    .from(doorInvitations)
    .where(
      and(
        eq(doorInvitations.accountId, sql.placeholder('accountId')),
        eq(doorInvitations.eventId, sql.placeholder('eventId')),
        eq(doorInvitations.status, 'accepted'),
      ),
    )
    .prepare()

  return {
    /** a ticket's passes of its current version, by admission */
    passesOfTicket: (orderId: string): PassRow[] => ofTicket.all({ orderId }),

    /** every pass of an event, of each ticket's current version (void ones too), by id */
    passesOfEvent: (eventId: string): ListedPassRow[] => ofEvent.all({ eventId }),

    /** admissions let in per ticket type */
    admitted: (eventId: string): Array<{ ticketTypeId: string; admitted: number }> =>
      db
        .select({ ticketTypeId: admissions.ticketTypeId, admitted: admissions.admitted })
        .from(admissions)
        .where(eq(admissions.eventId, eventId))
        .orderBy(asc(admissions.ticketTypeId))
        .all(),

    /** passes not void per ticket type: the people expected at the door */
    expected: (eventId: string): Array<{ ticketTypeId: string; expected: number }> =>
      db
        .select({ ticketTypeId: passes.ticketTypeId, expected: sql<number>`count(*)` })
        .from(passes)
        .where(and(eq(passes.eventId, eventId), ne(passes.status, 'void')))
        .groupBy(passes.ticketTypeId)
        .orderBy(asc(passes.ticketTypeId))
        .all(),

    /** admissions per minute, oldest first */
    perMinute: (eventId: string): Array<{ minute: string; admitted: number }> =>
      db
        .select({ minute: admissionsByMinute.minute, admitted: admissionsByMinute.admitted })
        .from(admissionsByMinute)
        .where(eq(admissionsByMinute.eventId, eventId))
        .orderBy(asc(admissionsByMinute.minute))
        .all(),

    /** the latest double entries (at most `limit`), oldest first, with each ticket's holder now */
    doubleEntries: (eventId: string, limit = DOUBLE_ENTRIES_LISTED): DoubleEntryRow[] =>
      db
        .select({
          scanId: doubleEntries.scanId,
          eventId: doubleEntries.eventId,
          orderId: doubleEntries.orderId,
          admission: doubleEntries.admission,
          passId: doubleEntries.passId,
          device: doubleEntries.device,
          scannedAt: doubleEntries.scannedAt,
          firstDevice: doubleEntries.firstDevice,
          firstAdmittedAt: doubleEntries.firstAdmittedAt,
          ownerId: passes.ownerId,
        })
        .from(doubleEntries)
        .leftJoin(
          passes,
          and(eq(passes.orderId, doubleEntries.orderId), eq(passes.admission, doubleEntries.admission)),
        )
        .where(eq(doubleEntries.eventId, eventId))
        .orderBy(desc(doubleEntries.scannedAt), desc(doubleEntries.scanId))
        .limit(limit)
        .all()
        .reverse(),

    /** the invitations to an event's door staff, pending and accepted, in the order first sent */
    doorStaff: (eventId: string): DoorInvitationRow[] =>
      db
        .select()
        .from(doorInvitations)
        .where(eq(doorInvitations.eventId, eventId))
        .orderBy(asc(doorInvitations.invitedAt), asc(doorInvitations.invitationId))
        .all(),

    /** one invitation */
    invitation: (invitationId: string): DoorInvitationRow | undefined =>
      db.select().from(doorInvitations).where(eq(doorInvitations.invitationId, invitationId)).get(),

    /**
     * An account's invitations, pending and accepted (the latest INVITATIONS_LISTED), oldest first:
     * those to its e-mail, and those it accepted or was named in before invitations existed.
     */
    invitationsOf: (accountId: string, email: string): DoorInvitationRow[] =>
      db
        .select()
        .from(doorInvitations)
        .where(or(eq(doorInvitations.email, email.toLowerCase()), eq(doorInvitations.accountId, accountId)))
        .orderBy(desc(doorInvitations.invitedAt), desc(doorInvitations.invitationId))
        .limit(INVITATIONS_LISTED)
        .all()
        .reverse(),

    isDoorStaff: (eventId: string, accountId: string): boolean =>
      staff.get({ eventId, accountId }) !== undefined,
  }
}

/** the SQLite reads as they answer, at once */
export type CheckinQueriesNow = ReturnType<typeof checkinQueries>
/** the reads on either store, awaited (db/store.ts) */
export type CheckinQueries = AsyncQueries<CheckinQueriesNow>
