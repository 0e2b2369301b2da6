// The door's reads on PostgreSQL (issue 15): what queries.ts answers, for the same rows.
import type { PgReader } from '../booking/pg-queries.ts'
import type { AsyncQueries } from '../db/store.ts'
import {
  type CheckinQueriesNow,
  DOUBLE_ENTRIES_LISTED,
  type DoubleEntryRow,
  type ListedPassRow,
  type PassRow,
} from './queries.ts'

const pass = `id, event_id AS "eventId", order_id AS "orderId", ticket_type_id AS "ticketTypeId",
  ticket_type AS "ticketType", admission, version, owner_id AS "ownerId", status,
  admitted_at AS "admittedAt", device`

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
      db.query<{ accountId: string; addedAt: string }>(
        `SELECT account_id AS "accountId", added_at AS "addedAt" FROM door_staff WHERE event_id = $1
         ORDER BY added_at COLLATE "C", account_id COLLATE "C"`,
        [eventId],
      ),

    isDoorStaff: async (eventId, accountId) =>
      (
        await db.query('SELECT 1 FROM door_staff WHERE event_id = $1 AND account_id = $2', [
          eventId,
          accountId,
        ])
      ).length > 0,
  }
}
