// Sales figures, folded from booking's facts into this area's own tables, declared once for both
// stores (db/read-model.ts). Revenue is integer paise, an integer on SQLite and a bigint on
// PostgreSQL (sums over many sales pass 2^31 paise, ₹2.1 crore), read as a number; so are the
// site's tickets sold.
import { type RowOf, readModelTable } from '../db/read-model.ts'

/** Per ticket type: orders by payment status, tickets sold and revenue (completed payments only).
 * Revenue is in integer paise, so sums of many sales are exact; rupees only at the API edge. */
export const salesByTicketType = readModelTable('sales_by_ticket_type', (k) => ({
  ticketTypeId: k.text('ticket_type_id').primaryKey(),
  eventId: k.text('event_id').notNull(),
  ticketType: k.text('ticket_type').notNull(),
  pending: k.integer('pending').notNull(),
  completed: k.integer('completed').notNull(),
  failed: k.integer('failed').notNull(),
  ticketsSold: k.integer('tickets_sold').notNull(),
  revenuePaise: k.bigint('revenue_paise').notNull(),
}))

/** Net tickets and revenue per event and hour (sales minus cancellations). */
export const salesByHour = readModelTable(
  'sales_by_hour',
  (k) => ({
    eventId: k.text('event_id').notNull(),
    hour: k.text('hour').notNull(),
    tickets: k.integer('tickets').notNull(),
    revenuePaise: k.bigint('revenue_paise').notNull(),
  }),
  (t, i) => [i.primaryKey({ columns: [t.eventId, t.hour] })],
)

/**
 * Per event, the dashboard's figures folded as sales happen (one row to read per event, not a sum
 * over its orders): orders by payment status, tickets sold, revenue in paise, and how many people
 * hold a valid ticket.
 */
export const eventSales = readModelTable(
  'event_sales',
  (k) => ({
    eventId: k.text('event_id').primaryKey(),
    organizerId: k.text('organizer_id').notNull(),
    pending: k.integer('pending').notNull(),
    completed: k.integer('completed').notNull(),
    failed: k.integer('failed').notNull(),
    ticketsSold: k.integer('tickets_sold').notNull(),
    revenuePaise: k.bigint('revenue_paise').notNull(),
    attendees: k.integer('attendees').notNull(),
  }),
  (t, i) => [i.index('event_sales_organizer').on(t.organizerId)],
)

/** Per event and person: the seats they hold valid tickets for (0 once they no longer attend). */
export const attendance = readModelTable(
  'attendance',
  (k) => ({
    eventId: k.text('event_id').notNull(),
    accountId: k.text('account_id').notNull(),
    tickets: k.integer('tickets').notNull(),
  }),
  (t, i) => [i.primaryKey({ columns: [t.eventId, t.accountId] })],
)

/** Tickets sold and revenue per organizer, and for the whole site (organizer '*'): the totals a
 * dashboard shows above its page of events, read as one row. */
export const salesTotals = readModelTable('sales_totals', (k) => ({
  organizerId: k.text('organizer_id').primaryKey(),
  ticketsSold: k.bigint('tickets_sold').notNull(),
  revenuePaise: k.bigint('revenue_paise').notNull(),
}))

export type SalesByTicketTypeRow = RowOf<typeof salesByTicketType>
export type SalesByHourRow = RowOf<typeof salesByHour>
export type EventSalesRow = RowOf<typeof eventSales>
export type AttendanceRow = RowOf<typeof attendance>
export type SalesTotalsRow = RowOf<typeof salesTotals>
