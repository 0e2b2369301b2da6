// Analytics' read models on PostgreSQL (issue 15: DATABASE_URL): the tables of tables.ts, column for
// column. Revenue is integer paise in a bigint (sums over many sales pass 2^31 paise, ₹2.1 crore),
// read as a number; so are the site's tickets sold.
import { bigint, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'

export const pgSalesByTicketType = pgTable('sales_by_ticket_type', {
  ticketTypeId: text('ticket_type_id').primaryKey(),
  eventId: text('event_id').notNull(),
  ticketType: text('ticket_type').notNull(),
  pending: integer('pending').notNull(),
  completed: integer('completed').notNull(),
  failed: integer('failed').notNull(),
  ticketsSold: integer('tickets_sold').notNull(),
  revenuePaise: bigint('revenue_paise', { mode: 'number' }).notNull(),
})

export const pgSalesByHour = pgTable(
  'sales_by_hour',
  {
    eventId: text('event_id').notNull(),
    hour: text('hour').notNull(),
    tickets: integer('tickets').notNull(),
    revenuePaise: bigint('revenue_paise', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.hour] })],
)

export const pgEventSales = pgTable(
  'event_sales',
  {
    eventId: text('event_id').primaryKey(),
    organizerId: text('organizer_id').notNull(),
    pending: integer('pending').notNull(),
    completed: integer('completed').notNull(),
    failed: integer('failed').notNull(),
    ticketsSold: integer('tickets_sold').notNull(),
    revenuePaise: bigint('revenue_paise', { mode: 'number' }).notNull(),
    attendees: integer('attendees').notNull(),
  },
  (t) => [index('event_sales_organizer').on(t.organizerId)],
)

export const pgAttendance = pgTable(
  'attendance',
  {
    eventId: text('event_id').notNull(),
    accountId: text('account_id').notNull(),
    tickets: integer('tickets').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.accountId] })],
)

/** per organizer, and for the whole site (organizer '*') */
export const pgSalesTotals = pgTable('sales_totals', {
  organizerId: text('organizer_id').primaryKey(),
  ticketsSold: bigint('tickets_sold', { mode: 'number' }).notNull(),
  revenuePaise: bigint('revenue_paise', { mode: 'number' }).notNull(),
})
