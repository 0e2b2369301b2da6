// The support area's read table on PostgreSQL (issue 15): tables.ts's columns and indexes in pg-core.
import { index, pgTable, text } from 'drizzle-orm/pg-core'

export const pgInquiries = pgTable(
  'inquiries',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    subject: text('subject').notNull(),
    inquiry: text('inquiry').notNull(),
    status: text('status').notNull().$type<'Pending' | 'Replied'>(),
    reply: text('reply'),
    createdAt: text('created_at').notNull(),
    repliedAt: text('replied_at'),
  },
  (t) => [index('inquiries_user').on(t.userId, t.createdAt), index('inquiries_created').on(t.createdAt)],
)
