// Reads of the door's read models: a ticket's passes, an event's passes for the manifest, its
// admission figures and double entries, and its door staff.
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import type { AsyncQueries } from '../db/store.ts'
import { admissions, admissionsByMinute, doorStaff, doubleEntries, passes } from './tables.ts'

export type PassRow = typeof passes.$inferSelect
/** a pass as the manifest lists it */
export type ListedPassRow = Pick<
  PassRow,
  'id' | 'orderId' | 'admission' | 'version' | 'status' | 'admittedAt' | 'ticketTypeId' | 'ownerId'
>
/** a double entry with the ticket's holder now */
export type DoubleEntryRow = typeof doubleEntries.$inferSelect & { ownerId: string | null }
export type DoorStaffRow = { accountId: string; addedAt: string }

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
    .select({ accountId: doorStaff.accountId })
    .from(doorStaff)
    .where(
      and(
        eq(doorStaff.eventId, sql.placeholder('eventId')),
        eq(doorStaff.accountId, sql.placeholder('accountId')),
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

    /** the accounts that may scan an event's passes, in the order they were added */
    doorStaff: (eventId: string): DoorStaffRow[] =>
      db
        .select({ accountId: doorStaff.accountId, addedAt: doorStaff.addedAt })
        .from(doorStaff)
        .where(eq(doorStaff.eventId, eventId))
        .orderBy(asc(doorStaff.addedAt), asc(doorStaff.accountId))
        .all(),

    isDoorStaff: (eventId: string, accountId: string): boolean =>
      staff.get({ eventId, accountId }) !== undefined,
  }
}

/** the SQLite reads as they answer, at once */
export type CheckinQueriesNow = ReturnType<typeof checkinQueries>
/** the reads on either store, awaited (db/store.ts) */
export type CheckinQueries = AsyncQueries<CheckinQueriesNow>
