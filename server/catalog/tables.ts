import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { ApprovalStatus, TicketTypeName } from '../../contracts/catalog.ts'

export const events = sqliteTable(
  'events',
  {
    id: text('id').primaryKey(),
    organizerId: text('organizer_id').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    date: text('date').notNull(),
    time: text('time').notNull(),
    location: text('location').notNull(),
    category: text('category').notNull(),
    approvalStatus: text('approval_status').notNull().$type<ApprovalStatus>(),
    images: text('images', { mode: 'json' }).notNull().$type<Array<{ url: string }>>(),
    videos: text('videos', { mode: 'json' }).notNull().$type<Array<{ url: string }>>(),
    /** YYYY-MM-DDTHH:MM in TIMEZONE, as the organizer entered it; null: sales end at the start */
    salesEnd: text('sales_end'),
    /** the admin's reason for the latest decision, when one was given */
    reviewReason: text('review_reason'),
    /** when the event was called off (issue 17), and the reason its organizer or an admin gave */
    cancelledAt: text('cancelled_at'),
    cancelReason: text('cancel_reason'),
    /** the stream version, for caching and optimistic checks */
    version: integer('version').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('events_status_date').on(t.approvalStatus, t.date, t.time),
    index('events_organizer').on(t.organizerId),
  ],
)

export const eventTicketTypes = sqliteTable(
  'event_ticket_types',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id').notNull(),
    /** order as the organizer listed them (the first is the search cards' price) */
    rank: integer('rank').notNull(),
    type: text('type').notNull().$type<TicketTypeName>(),
    /** integer paise (rupees only at the API edge) */
    pricePaise: integer('price_paise').notNull(),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    index('event_ticket_types_event').on(t.eventId, t.rank),
    index('event_ticket_types_price').on(t.pricePaise),
  ],
)
