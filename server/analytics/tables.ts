// Sales figures, folded from booking's facts into this area's own tables.
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

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
