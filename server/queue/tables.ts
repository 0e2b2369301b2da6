// The waiting rooms' read models (issue 41), declared once for both stores (db/read-model.ts): one
// row per event with a sale time (its settings and where its line stands) and one per account in
// line. The room's row is what its decisions read under the room's lock; `version` is its stream's.
import { type RowOf, readModelTable } from '../db/read-model.ts'

/** a ticket type's own sale time, later than its event's */
export type TypeOpening = { ticketTypeId: string; opensAt: string }

export const queueRooms = readModelTable('queue_rooms', (k) => ({
  eventId: k.text('event_id').primaryKey(),
  organizerId: k.text('organizer_id').notNull(),
  opensAt: k.text('opens_at').notNull(),
  waitingRoom: k.boolean('waiting_room').notNull(),
  /** null: admitted while checkouts in progress are below the target */
  admitPerMinute: k.integer('admit_per_minute'),
  /** ticket types with a later sale time of their own (null: none) */
  typeOpens: k.json<TypeOpening[]>('type_opens'),
  /** the facts on the room's stream (the version its next fact is appended at) */
  version: k.integer('version').notNull(),
  /** people in the pre-queue (before the sale opened) */
  early: k.integer('early').notNull(),
  openedAt: k.text('opened_at'),
  /** the line the next to join after the opening takes */
  nextLine: k.integer('next_line').notNull(),
  /** every line up to this one has been admitted */
  admittedThrough: k.integer('admitted_through').notNull(),
  /** a set rate's admissions are given up to this time */
  creditAt: k.text('credit_at'),
  paused: k.boolean('paused').notNull(),
  closedAt: k.text('closed_at'),
}))

export const queuePlaces = readModelTable(
  'queue_places',
  (k) => ({
    eventId: k.text('event_id').notNull(),
    accountId: k.text('account_id').notNull(),
    /** the pre-queue's secret draw (fixed-width hex); null for those who joined after the opening */
    draw: k.text('draw'),
    /** the place in line (1 first); null in the pre-queue until the sale opens */
    line: k.integer('line'),
    joinedAt: k.text('joined_at').notNull(),
    admittedAt: k.text('admitted_at'),
    expiresAt: k.text('expires_at'),
  }),
  (t, i) => [
    i.primaryKey({ columns: [t.eventId, t.accountId] }),
    i.index('queue_places_line').on(t.eventId, t.line),
  ],
)

export type QueueRoomRow = RowOf<typeof queueRooms>
export type QueuePlaceRow = RowOf<typeof queuePlaces>
