// The waiting lists' read model (issue 17): one row per entry, in the order joined (seq: the
// position of its WaitlistJoined fact). Offered seats count as taken (booking's availability).
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { EntryStatus } from './decide.ts'

export const waitlistEntries = sqliteTable(
  'waitlist_entries',
  {
    entryId: text('entry_id').primaryKey(),
    eventId: text('event_id').notNull(),
    ticketTypeId: text('ticket_type_id').notNull(),
    ticketType: text('ticket_type').notNull(),
    accountId: text('account_id').notNull(),
    quantity: integer('quantity').notNull(),
    status: text('status').notNull().$type<EntryStatus>(),
    seq: integer('seq').notNull(),
    offerUntil: text('offer_until'),
    joinedAt: text('joined_at').notNull(),
  },
  (t) => [
    index('waitlist_entries_type').on(t.ticketTypeId, t.status, t.seq),
    index('waitlist_entries_account').on(t.accountId, t.status),
  ],
)
