// Sales figures, folded from booking's facts into this area's own tables.
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** Per ticket type: orders by payment status, tickets sold and revenue (completed payments only).
 * Revenue is in integer paise, so sums of many sales are exact; rupees only at the API edge. */
export const salesByTicketType = sqliteTable('sales_by_ticket_type', {
  ticketTypeId: text('ticket_type_id').primaryKey(),
  eventId: text('event_id').notNull(),
  ticketType: text('ticket_type').notNull(),
  pending: integer('pending').notNull(),
  completed: integer('completed').notNull(),
  failed: integer('failed').notNull(),
  ticketsSold: integer('tickets_sold').notNull(),
  revenuePaise: integer('revenue_paise').notNull(),
})

/** Net tickets and revenue per event and hour (sales minus cancellations). */
export const salesByHour = sqliteTable(
  'sales_by_hour',
  {
    eventId: text('event_id').notNull(),
    hour: text('hour').notNull(),
    tickets: integer('tickets').notNull(),
    revenuePaise: integer('revenue_paise').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.hour] })],
)

/**
 * Per event, the dashboard's figures folded as sales happen (one row to read per event, not a sum
 * over its orders): orders by payment status, tickets sold, revenue in paise, and how many people
 * hold a valid ticket.
 */
export const eventSales = sqliteTable(
  'event_sales',
  {
    eventId: text('event_id').primaryKey(),
    organizerId: text('organizer_id').notNull(),
    pending: integer('pending').notNull(),
    completed: integer('completed').notNull(),
    failed: integer('failed').notNull(),
    ticketsSold: integer('tickets_sold').notNull(),
    revenuePaise: integer('revenue_paise').notNull(),
    attendees: integer('attendees').notNull(),
  },
  (t) => [index('event_sales_organizer').on(t.organizerId)],
)

/** Per event and person: the seats they hold valid tickets for (0 once they no longer attend). */
export const attendance = sqliteTable(
  'attendance',
  {
    eventId: text('event_id').notNull(),
    accountId: text('account_id').notNull(),
    tickets: integer('tickets').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.accountId] })],
)

/** Tickets sold and revenue per organizer, and for the whole site (organizer '*'): the totals a
 * dashboard shows above its page of events, read as one row. */
export const salesTotals = sqliteTable('sales_totals', {
  organizerId: text('organizer_id').primaryKey(),
  ticketsSold: integer('tickets_sold').notNull(),
  revenuePaise: integer('revenue_paise').notNull(),
})
