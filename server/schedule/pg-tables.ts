// The schedule area's read table on PostgreSQL (issue 15): tables.ts's columns and indexes in pg-core.
import { customType, index, pgTable, text } from 'drizzle-orm/pg-core'

export type Speakers = Array<{ name: string; bio: string }>

/** JSON kept as text, byte for byte what SQLite's text column in json mode holds */
const speakersText = customType<{ data: Speakers; driverData: string }>({
  dataType: () => 'text',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => JSON.parse(value) as Speakers,
})

export const pgSessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id').notNull(),
    organizerId: text('organizer_id').notNull(),
    sessionTitle: text('session_title').notNull(),
    description: text('description').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    speakers: speakersText('speakers').notNull(),
    location: text('location').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('sessions_event').on(t.eventId, t.startTime)],
)
