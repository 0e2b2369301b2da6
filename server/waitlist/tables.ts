// The waiting lists' read model (issue 17), declared once for both stores (db/read-model.ts): one
// row per entry, in the order joined (seq: the position of its WaitlistJoined fact). Offered seats
// count as taken (booking's availability).
import { type RowOf, readModelTable } from '../db/read-model.ts'
import type { EntryStatus } from './decide.ts'

export const waitlistEntries = readModelTable(
  'waitlist_entries',
  (k) => ({
    entryId: k.text('entry_id').primaryKey(),
    eventId: k.text('event_id').notNull(),
    ticketTypeId: k.text('ticket_type_id').notNull(),
    ticketType: k.text('ticket_type').notNull(),
    accountId: k.text('account_id').notNull(),
    quantity: k.integer('quantity').notNull(),
    status: k.text('status').notNull().$type<EntryStatus>(),
    seq: k.integer('seq').notNull(),
    offerUntil: k.text('offer_until'),
    joinedAt: k.text('joined_at').notNull(),
  }),
  (t, i) => [
    i.index('waitlist_entries_type').on(t.ticketTypeId, t.status, t.seq),
    i.index('waitlist_entries_account').on(t.accountId, t.status),
  ],
)

export type WaitlistEntry = RowOf<typeof waitlistEntries>
