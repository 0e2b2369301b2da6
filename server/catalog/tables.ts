// The catalogue's read models, declared once for both stores (db/read-model.ts). Its full-text
// index is each store's own (search-index.ts: SQLite's FTS5 table; pg-search.ts: PostgreSQL's).
import type { ApprovalStatus, TicketTypeName } from '../../contracts/catalog.ts'
import { type RowOf, readModelTable } from '../db/read-model.ts'

export const events = readModelTable(
  'events',
  (k) => ({
    id: k.text('id').primaryKey(),
    organizerId: k.text('organizer_id').notNull(),
    title: k.text('title').notNull(),
    description: k.text('description').notNull(),
    date: k.text('date').notNull(),
    time: k.text('time').notNull(),
    location: k.text('location').notNull(),
    category: k.text('category').notNull(),
    approvalStatus: k.text('approval_status').notNull().$type<ApprovalStatus>(),
    images: k.json<Array<{ url: string }>>('images').notNull(),
    videos: k.json<Array<{ url: string }>>('videos').notNull(),
    /** YYYY-MM-DDTHH:MM in TIMEZONE, as the organizer entered it; null: sales end at the start */
    salesEnd: k.text('sales_end'),
    /** the admin's reason for the latest decision, when one was given */
    reviewReason: k.text('review_reason'),
    /** when the event was called off (issue 17), and the reason its organizer or an admin gave */
    cancelledAt: k.text('cancelled_at'),
    cancelReason: k.text('cancel_reason'),
    /** the GST state code of where it is held (issue 42), null when none was given */
    state: k.text('gst_state'),
    /** whether its prices include GST (taken out of them) or not (added on top) */
    pricesIncludeTax: k.boolean('prices_include_tax').notNull().default(true),
    /** the stream version, for caching and optimistic checks */
    version: k.integer('version').notNull(),
    createdAt: k.text('created_at').notNull(),
    updatedAt: k.text('updated_at').notNull(),
  }),
  (t, i) => [
    i.index('events_status_date').on(t.approvalStatus, t.date, t.time),
    i.index('events_organizer').on(t.organizerId),
  ],
)

export const eventTicketTypes = readModelTable(
  'event_ticket_types',
  (k) => ({
    id: k.text('id').primaryKey(),
    eventId: k.text('event_id').notNull(),
    /** order as the organizer listed them (the first is the search cards' price) */
    rank: k.integer('rank').notNull(),
    type: k.text('type').notNull().$type<TicketTypeName>(),
    /** integer paise (rupees only at the API edge) */
    pricePaise: k.bigint('price_paise').notNull(),
    quantity: k.integer('quantity').notNull(),
    /** its GST rate in hundredths of a percent (18% is 1800): whole numbers all the way */
    taxRateBp: k.integer('tax_rate_bp').notNull().default(0),
  }),
  (t, i) => [
    i.index('event_ticket_types_event').on(t.eventId, t.rank),
    i.index('event_ticket_types_price').on(t.pricePaise),
  ],
)

export type EventRow = RowOf<typeof events>
export type TicketTypeRow = RowOf<typeof eventTicketTypes>
