// The door's reads on PostgreSQL (issue 15): what queries.ts answers, for the same rows.
import type { PgReader } from '../booking/pg-queries.ts'
import type { AsyncQueries } from '../db/store.ts'
import {
  type CheckinQueriesNow,
  DOUBLE_ENTRIES_LISTED,
  type DoorInvitationRow,
  type DoubleEntryRow,
  INVITATIONS_LISTED,
  type ListedPassRow,
  type PassRow,
} from './queries.ts'

const pass = `id, event_id AS "eventId", order_id AS "orderId", ticket_type_id AS "ticketTypeId",
  ticket_type AS "ticketType", admission, version, owner_id AS "ownerId", status,
  admitted_at AS "admittedAt", device`

const invitation = `invitation_id AS "invitationId", event_id AS "eventId", email, account_id AS "accountId",
  status, invited_at AS "invitedAt", accepted_at AS "acceptedAt"`

// Ids are newId()'s lowercase hex with '.' and digits: "C" ordering is SQLite's binary one.
export function pgCheckinQueries(db: PgReader): AsyncQueries<CheckinQueriesNow> {
  return {
    passesOfTicket: (orderId) =>
      db.query<PassRow>(`SELECT ${pass} FROM passes WHERE order_id = $1 ORDER BY admission`, [orderId]),

    passesOfEvent: (eventId) =>
      db.query<ListedPassRow>(
        `SELECT id, order_id AS "orderId", admission, version, status, admitted_at AS "admittedAt", ticket_type_id AS "ticketTypeId", owner_id AS "ownerId"
         FROM passes WHERE event_id = $1 ORDER BY id COLLATE "C"`,
        [eventId],
      ),

    admitted: (eventId) =>
      db.query<{ ticketTypeId: string; admitted: number }>(
        `SELECT ticket_type_id AS "ticketTypeId", admitted FROM admissions WHERE event_id = $1
         ORDER BY ticket_type_id COLLATE "C"`,
        [eventId],
      ),

    expected: (eventId) =>
      db.query<{ ticketTypeId: string; expected: number }>(
        `SELECT ticket_type_id AS "ticketTypeId", count(*)::int AS expected FROM passes
         WHERE event_id = $1 AND status <> 'void' GROUP BY ticket_type_id ORDER BY ticket_type_id COLLATE "C"`,
        [eventId],
      ),

    perMinute: (eventId) =>
      db.query<{ minute: string; admitted: number }>(
        'SELECT minute, admitted FROM admissions_by_minute WHERE event_id = $1 ORDER BY minute COLLATE "C"',
        [eventId],
      ),

    doubleEntries: async (eventId, limit = DOUBLE_ENTRIES_LISTED) =>
      (
        await db.query<DoubleEntryRow>(
          `SELECT d.scan_id AS "scanId", d.event_id AS "eventId", d.order_id AS "orderId", d.admission,
             d.pass_id AS "passId", d.device, d.scanned_at AS "scannedAt", d.first_device AS "firstDevice",
             d.first_admitted_at AS "firstAdmittedAt", p.owner_id AS "ownerId"
           FROM double_entries d
           LEFT JOIN passes p ON p.order_id = d.order_id AND p.admission = d.admission
           WHERE d.event_id = $1
           ORDER BY d.scanned_at COLLATE "C" DESC, d.scan_id COLLATE "C" DESC LIMIT $2`,
          [eventId, limit],
        )
      ).reverse(),

    doorStaff: (eventId) =>
      db.query<DoorInvitationRow>(
        `SELECT ${invitation} FROM door_invitations WHERE event_id = $1
         ORDER BY invited_at COLLATE "C", invitation_id COLLATE "C"`,
        [eventId],
      ),

    invitation: async (invitationId) =>
      (
        await db.query<DoorInvitationRow>(
          `SELECT ${invitation} FROM door_invitations WHERE invitation_id = $1`,
          [invitationId],
        )
      )[0],

    invitationsOf: async (accountId, email) =>
      (
        await db.query<DoorInvitationRow>(
          `SELECT ${invitation} FROM door_invitations WHERE email = $1 OR account_id = $2
           ORDER BY invited_at COLLATE "C" DESC, invitation_id COLLATE "C" DESC LIMIT $3`,
          [email.toLowerCase(), accountId, INVITATIONS_LISTED],
        )
      ).reverse(),

    isDoorStaff: async (eventId, accountId) =>
      (
        await db.query(
          `SELECT 1 FROM door_invitations WHERE account_id = $1 AND event_id = $2 AND status = 'accepted'`,
          [accountId, eventId],
        )
      ).length > 0,
  }
}
