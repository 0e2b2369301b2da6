import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const inquiries = sqliteTable(
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
