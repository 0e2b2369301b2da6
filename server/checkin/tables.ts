// The door's read models (issue 16), folded from booking's pass facts and the catalogue's door
// staff facts: every pass and its status, the double entries, admissions per ticket type and per
// minute, and the invitations to each event's door staff (who may scan it).
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

export type InvitationStatus = 'invited' | 'accepted'

/**
 * The invitations to each event's door staff, pending and accepted: an accepted one lets its account
 * scan the event's passes, besides its organizer and the admins. An invitation is to an e-mail
 * address (null for one made for an account before invitations existed), bound to the account that
 * accepted it (or that it was made for).
 */
export const doorInvitations = sqliteTable(
  'door_invitations',
  {
    invitationId: text('invitation_id').primaryKey(),
    eventId: text('event_id').notNull(),
    /** lower-case */
    email: text('email'),
    accountId: text('account_id'),
    status: text('status').notNull().$type<InvitationStatus>(),
    /** when it was first sent (ISO): the list's order */
    invitedAt: text('invited_at').notNull(),
    acceptedAt: text('accepted_at'),
  },
  (t) => [
    index('door_invitations_event').on(t.eventId, t.invitedAt),
    index('door_invitations_email').on(t.email),
    index('door_invitations_account').on(t.accountId, t.eventId),
  ],
)
