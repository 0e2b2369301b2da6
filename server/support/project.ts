// Inquiries as they are opened and answered, on either store.
import { sql } from 'drizzle-orm'
import { statement } from '../db/sql.ts'
import { readProjection } from '../ledger/read-projection.ts'
import type { SupportFact } from './facts.ts'
import { inquiries } from './tables.ts'

const insertInquiry = statement<{ id: string; userId: string; subject: string; inquiry: string; at: string }>(
  (p) => sql`INSERT INTO inquiries (id, user_id, subject, inquiry, status, reply, created_at, replied_at)
    VALUES (${p.id}, ${p.userId}, ${p.subject}, ${p.inquiry}, 'Pending', NULL, ${p.at}, NULL)`,
)

const answer = statement<{ id: string; reply: string; at: string }>(
  (p) =>
    sql`UPDATE inquiries SET status = 'Replied', reply = ${p.reply}, replied_at = ${p.at} WHERE id = ${p.id}`,
)

export const supportProjection = readProjection<SupportFact>({
  name: 'support',
  tables: [inquiries],
  handlers: {
    InquiryOpened: (fact, x) => {
      const { inquiryId, userId, subject, inquiry } = fact.data
      return x.run(insertInquiry, { id: inquiryId, userId, subject, inquiry, at: fact.at })
    },
    InquiryAnswered: (fact, x) =>
      x.run(answer, { id: fact.data.inquiryId, reply: fact.data.reply, at: fact.at }),
  },
})
