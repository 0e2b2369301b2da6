import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id').notNull(),
    organizerId: text('organizer_id').notNull(),
    sessionTitle: text('session_title').notNull(),
    description: text('description').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    speakers: text('speakers', { mode: 'json' }).notNull().$type<Array<{ name: string; bio: string }>>(),
    location: text('location').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('sessions_event').on(t.eventId, t.startTime)],
)
