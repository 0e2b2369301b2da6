// The door's read models on PostgreSQL (issue 15: DATABASE_URL): the tables of tables.ts, column for
// column and index for index.
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import type { TicketTypeName } from '../../contracts/catalog.ts'
import type { InvitationStatus, PassStatus } from './tables.ts'

export const pgPasses = pgTable(
  'passes',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id').notNull(),
    orderId: text('order_id').notNull(),
    ticketTypeId: text('ticket_type_id').notNull(),
    ticketType: text('ticket_type').notNull().$type<TicketTypeName>(),
    admission: integer('admission').notNull(),
    version: integer('version').notNull(),
    ownerId: text('owner_id').notNull(),
    status: text('status').notNull().$type<PassStatus>(),
    admittedAt: text('admitted_at'),
    device: text('device'),
  },
  (t) => [index('passes_event').on(t.eventId, t.id), index('passes_order').on(t.orderId)],
)

export const pgDoubleEntries = pgTable(
  'double_entries',
  {
    scanId: text('scan_id').primaryKey(),
    eventId: text('event_id').notNull(),
    orderId: text('order_id').notNull(),
    admission: integer('admission').notNull(),
    passId: text('pass_id').notNull(),
    device: text('device').notNull(),
    scannedAt: text('scanned_at').notNull(),
    firstDevice: text('first_device').notNull(),
    firstAdmittedAt: text('first_admitted_at').notNull(),
  },
  (t) => [index('double_entries_event').on(t.eventId, t.scannedAt)],
)

export const pgAdmissions = pgTable(
  'admissions',
  {
    eventId: text('event_id').notNull(),
    ticketTypeId: text('ticket_type_id').notNull(),
    admitted: integer('admitted').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.ticketTypeId] })],
)

export const pgAdmissionsByMinute = pgTable(
  'admissions_by_minute',
  {
    eventId: text('event_id').notNull(),
    minute: text('minute').notNull(),
    admitted: integer('admitted').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.minute] })],
)

export const pgDoorInvitations = pgTable(
  'door_invitations',
  {
    invitationId: text('invitation_id').primaryKey(),
    eventId: text('event_id').notNull(),
    email: text('email'),
    accountId: text('account_id'),
    status: text('status').notNull().$type<InvitationStatus>(),
    invitedAt: text('invited_at').notNull(),
    acceptedAt: text('accepted_at'),
  },
  (t) => [
    index('door_invitations_event').on(t.eventId, t.invitedAt),
    index('door_invitations_email').on(t.email),
    index('door_invitations_account').on(t.accountId, t.eventId),
  ],
)
