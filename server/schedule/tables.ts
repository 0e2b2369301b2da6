// The schedule's read model, declared once for both stores (db/read-model.ts).
import { type RowOf, readModelTable } from '../db/read-model.ts'

export type Speakers = Array<{ name: string; bio: string }>

export const sessions = readModelTable(
  'sessions',
  (k) => ({
    id: k.text('id').primaryKey(),
    eventId: k.text('event_id').notNull(),
    organizerId: k.text('organizer_id').notNull(),
    sessionTitle: k.text('session_title').notNull(),
    description: k.text('description').notNull(),
    startTime: k.text('start_time').notNull(),
    endTime: k.text('end_time').notNull(),
    speakers: k.json<Speakers>('speakers').notNull(),
    location: k.text('location').notNull(),
    createdAt: k.text('created_at').notNull(),
  }),
  (t, i) => [i.index('sessions_event').on(t.eventId, t.startTime)],
)

export type SessionRow = RowOf<typeof sessions>
