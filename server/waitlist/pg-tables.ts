// waitlist/tables.ts on PostgreSQL, column for column and index for index.
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import type { EntryStatus } from './decide.ts'

export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    entryId: text().primaryKey(),
    eventId: text().notNull(),
    ticketTypeId: text().notNull(),
    ticketType: text().notNull(),
    accountId: text().notNull(),
    quantity: integer().notNull(),
    status: text().notNull().$type<EntryStatus>(),
    seq: integer().notNull(),
    offerUntil: text(),
    joinedAt: text().notNull(),
  },
  (t) => [
    index('waitlist_entries_type').on(t.ticketTypeId, t.status, t.seq),
    index('waitlist_entries_account').on(t.accountId, t.status),
  ],
)
