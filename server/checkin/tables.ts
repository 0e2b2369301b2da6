// The door's read models (issue 16), folded from booking's pass facts and the catalogue's door
// staff facts: every pass and its status, the double entries, admissions per ticket type and per
// minute, and the invitations to each event's door staff (who may scan it). Declared once for both
// stores (db/read-model.ts).
import type { TicketTypeName } from '../../contracts/catalog.ts'
import { type RowOf, readModelTable } from '../db/read-model.ts'

export type PassStatus = 'valid' | 'admitted' | 'void'

/**
 * One row per admission of an issued ticket, of its current version: its id is
 * `${orderId}.${admission}.${version}` (a transfer moves every row of the ticket to the next version,
 * voiding the codes of the one before; a cancel voids them all).
 */
export const passes = readModelTable(
  'passes',
  (k) => ({
    id: k.text('id').primaryKey(),
    eventId: k.text('event_id').notNull(),
    orderId: k.text('order_id').notNull(),
    ticketTypeId: k.text('ticket_type_id').notNull(),
    ticketType: k.text('ticket_type').notNull().$type<TicketTypeName>(),
    /** 1..quantity */
    admission: k.integer('admission').notNull(),
    /** transfers of the ticket so far */
    version: k.integer('version').notNull(),
    ownerId: k.text('owner_id').notNull(),
    status: k.text('status').notNull().$type<PassStatus>(),
    /** when it was first let in (ISO), and by which device; null until then */
    admittedAt: k.text('admitted_at'),
    device: k.text('device'),
  }),
  (t, i) => [i.index('passes_event').on(t.eventId, t.id), i.index('passes_order').on(t.orderId)],
)

/** Scans of an admission after it was let in (PassScanRefused): the organizer's double entries. */
export const doubleEntries = readModelTable(
  'double_entries',
  (k) => ({
    scanId: k.text('scan_id').primaryKey(),
    eventId: k.text('event_id').notNull(),
    orderId: k.text('order_id').notNull(),
    admission: k.integer('admission').notNull(),
    /** the pass scanned (its version may be older than the ticket's now) */
    passId: k.text('pass_id').notNull(),
    device: k.text('device').notNull(),
    scannedAt: k.text('scanned_at').notNull(),
    firstDevice: k.text('first_device').notNull(),
    firstAdmittedAt: k.text('first_admitted_at').notNull(),
  }),
  (t, i) => [i.index('double_entries_event').on(t.eventId, t.scannedAt)],
)

/** Admissions let in per event and ticket type. */
export const admissions = readModelTable(
  'admissions',
  (k) => ({
    eventId: k.text('event_id').notNull(),
    ticketTypeId: k.text('ticket_type_id').notNull(),
    admitted: k.integer('admitted').notNull(),
  }),
  (t, i) => [i.primaryKey({ columns: [t.eventId, t.ticketTypeId] })],
)

/** Admissions let in per event and minute ('YYYY-MM-DDTHH:MM', UTC, of admittedAt). */
export const admissionsByMinute = readModelTable(
  'admissions_by_minute',
  (k) => ({
    eventId: k.text('event_id').notNull(),
    minute: k.text('minute').notNull(),
    admitted: k.integer('admitted').notNull(),
  }),
  (t, i) => [i.primaryKey({ columns: [t.eventId, t.minute] })],
)

export type InvitationStatus = 'invited' | 'accepted'

/**
 * The invitations to each event's door staff, pending and accepted: an accepted one lets its account
 * scan the event's passes, besides its organizer and the admins. An invitation is to an e-mail
 * address (null for one made for an account before invitations existed), bound to the account that
 * accepted it (or that it was made for).
 */
export const doorInvitations = readModelTable(
  'door_invitations',
  (k) => ({
    invitationId: k.text('invitation_id').primaryKey(),
    eventId: k.text('event_id').notNull(),
    /** lower-case */
    email: k.text('email'),
    accountId: k.text('account_id'),
    status: k.text('status').notNull().$type<InvitationStatus>(),
    /** when it was first sent (ISO): the list's order */
    invitedAt: k.text('invited_at').notNull(),
    acceptedAt: k.text('accepted_at'),
  }),
  (t, i) => [
    i.index('door_invitations_event').on(t.eventId, t.invitedAt),
    i.index('door_invitations_email').on(t.email),
    i.index('door_invitations_account').on(t.accountId, t.eventId),
  ],
)

export type PassRow = RowOf<typeof passes>
export type DoubleEntryTableRow = RowOf<typeof doubleEntries>
export type DoorInvitationRow = RowOf<typeof doorInvitations>
