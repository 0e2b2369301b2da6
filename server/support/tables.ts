// The support desk's read model, declared once for both stores (db/read-model.ts).
import { type RowOf, readModelTable } from '../db/read-model.ts'

export const inquiries = readModelTable(
  'inquiries',
  (k) => ({
    id: k.text('id').primaryKey(),
    userId: k.text('user_id').notNull(),
    subject: k.text('subject').notNull(),
    inquiry: k.text('inquiry').notNull(),
    status: k.text('status').notNull().$type<'Pending' | 'Replied'>(),
    reply: k.text('reply'),
    createdAt: k.text('created_at').notNull(),
    repliedAt: k.text('replied_at'),
  }),
  (t, i) => [
    i.index('inquiries_user').on(t.userId, t.createdAt),
    i.index('inquiries_created').on(t.createdAt),
  ],
)

export type InquiryRow = RowOf<typeof inquiries>
