// Reads of the door's read models, on either store: a ticket's passes, an event's passes for the
// manifest, its admission figures and double entries, and the invitations to door staff (an
// event's, an account's). Ids are newId()'s lowercase hex with '.' and digits; text is ordered byte
// by byte on both stores (d.bytes).
import { sql } from 'drizzle-orm'
import { after, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import {
  type DoorInvitationRow,
  type DoubleEntryTableRow,
  doorInvitations,
  doubleEntries,
  type PassRow,
  passes,
} from './tables.ts'

export type { DoorInvitationRow, PassRow }
/** a pass as the manifest lists it */
export type ListedPassRow = Pick<
  PassRow,
  'id' | 'orderId' | 'admission' | 'version' | 'status' | 'admittedAt' | 'ticketTypeId' | 'ownerId'
>
/** a double entry with the ticket's holder now */
export type DoubleEntryRow = DoubleEntryTableRow & { ownerId: string | null }

/** the most invitations an account's list shows (the latest) */
export const INVITATIONS_LISTED = 200

/** the most double entries a summary lists (the latest): a push stays small however many there are */
export const DOUBLE_ENTRIES_LISTED = 500

const ofTicket = statement<{ orderId: string }, PassRow>(
  (p) => sql`SELECT ${passes.columns()} FROM passes WHERE order_id = ${p.orderId} ORDER BY admission`,
)

const ofEvent = statement<{ eventId: string }, ListedPassRow>(
  (p, d) => sql`SELECT id, order_id AS "orderId", admission, version, status, admitted_at AS "admittedAt",
      ticket_type_id AS "ticketTypeId", owner_id AS "ownerId"
    FROM passes WHERE event_id = ${p.eventId} ORDER BY ${d.bytes(sql`id`)}`,
)

const admitted = statement<{ eventId: string }, { ticketTypeId: string; admitted: number }>(
  (p, d) => sql`SELECT ticket_type_id AS "ticketTypeId", admitted FROM admissions
    WHERE event_id = ${p.eventId} ORDER BY ${d.bytes(sql`ticket_type_id`)}`,
)

const expected = statement<{ eventId: string }, { ticketTypeId: string; expected: number }>(
  (p, d) => sql`SELECT ticket_type_id AS "ticketTypeId", CAST(count(*) AS integer) AS expected FROM passes
    WHERE event_id = ${p.eventId} AND status <> 'void'
    GROUP BY ticket_type_id ORDER BY ${d.bytes(sql`ticket_type_id`)}`,
)

const perMinute = statement<{ eventId: string }, { minute: string; admitted: number }>(
  (p, d) => sql`SELECT minute, admitted FROM admissions_by_minute WHERE event_id = ${p.eventId}
    ORDER BY ${d.bytes(sql`minute`)}`,
)

/** the latest first (reversed by the caller) */
const latestDoubleEntries = statement<{ eventId: string; limit: number }, DoubleEntryRow>(
  (p, d) => sql`SELECT ${doubleEntries.columns('d')}, p.owner_id AS "ownerId"
    FROM double_entries d
    LEFT JOIN passes p ON p.order_id = d.order_id AND p.admission = d.admission
    WHERE d.event_id = ${p.eventId}
    ORDER BY ${d.bytes(sql`d.scanned_at`)} DESC, ${d.bytes(sql`d.scan_id`)} DESC
    LIMIT ${p.limit}`,
)

const doorStaff = statement<{ eventId: string }, DoorInvitationRow>(
  (p, d) => sql`SELECT ${doorInvitations.columns()} FROM door_invitations WHERE event_id = ${p.eventId}
    ORDER BY ${d.bytes(sql`invited_at`)}, ${d.bytes(sql`invitation_id`)}`,
)

const invitation = statement<{ invitationId: string }, DoorInvitationRow>(
  (p) =>
    sql`SELECT ${doorInvitations.columns()} FROM door_invitations WHERE invitation_id = ${p.invitationId}`,
)

/** the latest first (reversed by the caller) */
const latestInvitationsOf = statement<{ accountId: string; email: string; limit: number }, DoorInvitationRow>(
  (p, d) => sql`SELECT ${doorInvitations.columns()} FROM door_invitations
    WHERE email = ${p.email} OR account_id = ${p.accountId}
    ORDER BY ${d.bytes(sql`invited_at`)} DESC, ${d.bytes(sql`invitation_id`)} DESC
    LIMIT ${p.limit}`,
)

const staff = statement<{ eventId: string; accountId: string }, { one: number }>(
  (p) => sql`SELECT 1 AS one FROM door_invitations
    WHERE account_id = ${p.accountId} AND event_id = ${p.eventId} AND status = 'accepted'`,
)

export const checkinQueries = (x: Sql) => {
  const pass = passes.decode(x.dialect)
  const entry = doubleEntries.decode(x.dialect) as (raw: Record<string, unknown>) => DoubleEntryRow
  const invited = doorInvitations.decode(x.dialect)
  return {
    /** a ticket's passes of its current version, by admission */
    passesOfTicket: (orderId: string) => after(x.all(ofTicket, { orderId }), (rows) => rows.map(pass)),

    /** every pass of an event, of each ticket's current version (void ones too), by id */
    passesOfEvent: (eventId: string) => x.all(ofEvent, { eventId }),

    /** admissions let in per ticket type */
    admitted: (eventId: string) => x.all(admitted, { eventId }),

    /** passes not void per ticket type: the people expected at the door */
    expected: (eventId: string) => x.all(expected, { eventId }),

    /** admissions per minute, oldest first */
    perMinute: (eventId: string) => x.all(perMinute, { eventId }),

    /** the latest double entries (at most `limit`), oldest first, with each ticket's holder now */
    doubleEntries: (eventId: string, limit = DOUBLE_ENTRIES_LISTED) =>
      after(x.all(latestDoubleEntries, { eventId, limit }), (rows) => rows.map(entry).reverse()),

    /** the invitations to an event's door staff, pending and accepted, in the order first sent */
    doorStaff: (eventId: string) => after(x.all(doorStaff, { eventId }), (rows) => rows.map(invited)),

    /** one invitation */
    invitation: (invitationId: string) =>
      after(x.get(invitation, { invitationId }), (found) => (found ? invited(found) : undefined)),

    /**
     * An account's invitations, pending and accepted (the latest INVITATIONS_LISTED), oldest first:
     * those to its e-mail, and those it accepted or was named in before invitations existed.
     */
    invitationsOf: (accountId: string, email: string) =>
      after(
        x.all(latestInvitationsOf, { accountId, email: email.toLowerCase(), limit: INVITATIONS_LISTED }),
        (rows) => rows.map(invited).reverse(),
      ),

    isDoorStaff: (eventId: string, accountId: string) =>
      after(x.get(staff, { eventId, accountId }), (found) => found !== undefined),
  }
}

/** the reads on either store, awaited (db/store.ts) */
export type CheckinQueries = AsyncQueries<ReturnType<typeof checkinQueries>>
