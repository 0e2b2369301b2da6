// The door's read models (issue 16), folded from booking's pass facts and the catalogue's door
// staff facts: every pass and its status, the double entries, admissions per ticket type and per
// minute, and who may scan each event.
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { TicketTypeName } from '../../contracts/catalog.ts'

export type PassStatus = 'valid' | 'admitted' | 'void'

/**
 * One row per admission of an issued ticket, of its current version: its id is
 * `${orderId}.${admission}.${version}` (a transfer moves every row of the ticket to the next version,
 * voiding the codes of the one before; a cancel voids them all).
 */
export const passes = sqliteTable(
  'passes',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id').notNull(),
    orderId: text('order_id').notNull(),
    ticketTypeId: text('ticket_type_id').notNull(),
    ticketType: text('ticket_type').notNull().$type<TicketTypeName>(),
    /** 1..quantity */
    admission: integer('admission').notNull(),
    /** transfers of the ticket so far */
    version: integer('version').notNull(),
    ownerId: text('owner_id').notNull(),
    status: text('status').notNull().$type<PassStatus>(),
    /** when it was first let in (ISO), and by which device; null until then */
    admittedAt: text('admitted_at'),
    device: text('device'),
  },
  (t) => [index('passes_event').on(t.eventId, t.id), index('passes_order').on(t.orderId)],
)

/** Scans of an admission after it was let in (PassScanRefused): the organizer's double entries. */
export const doubleEntries = sqliteTable(
  'double_entries',
  {
    scanId: text('scan_id').primaryKey(),
    eventId: text('event_id').notNull(),
    orderId: text('order_id').notNull(),
    admission: integer('admission').notNull(),
    /** the pass scanned (its version may be older than the ticket's now) */
    passId: text('pass_id').notNull(),
    device: text('device').notNull(),
    scannedAt: text('scanned_at').notNull(),
    firstDevice: text('first_device').notNull(),
    firstAdmittedAt: text('first_admitted_at').notNull(),
  },
  (t) => [index('double_entries_event').on(t.eventId, t.scannedAt)],
)

/** Admissions let in per event and ticket type. */
export const admissions = sqliteTable(
  'admissions',
  {
    eventId: text('event_id').notNull(),
    ticketTypeId: text('ticket_type_id').notNull(),
    admitted: integer('admitted').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.ticketTypeId] })],
)

/** Admissions let in per event and minute ('YYYY-MM-DDTHH:MM', UTC, of admittedAt). */
export const admissionsByMinute = sqliteTable(
  'admissions_by_minute',
  {
    eventId: text('event_id').notNull(),
    minute: text('minute').notNull(),
    admitted: integer('admitted').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.minute] })],
)

/** The accounts that may scan an event's passes, besides its organizer and the admins. */
export const doorStaff = sqliteTable(
  'door_staff',
  {
    eventId: text('event_id').notNull(),
    accountId: text('account_id').notNull(),
    /** when it was added (ISO): the list's order */
    addedAt: text('added_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.accountId] })],
)
