import { eq, sql } from 'drizzle-orm'
import { projection } from '../ledger/ledger.ts'
import type { SupportFact } from './facts.ts'
import { inquiries } from './tables.ts'

const p = sql.placeholder

export const supportProjection = projection<SupportFact>({
  name: 'support',
  tables: [inquiries],
  handlers(db) {
    const insertInquiry = db
      .insert(inquiries)
      .values({
        id: p('id'),
        userId: p('userId'),
        subject: p('subject'),
        inquiry: p('inquiry'),
        status: 'Pending',
        reply: null,
        createdAt: p('at'),
        repliedAt: null,
      })
      .prepare()
    const answer = db
      .update(inquiries)
      .set({ status: 'Replied', reply: sql`${p('reply')}`, repliedAt: sql`${p('at')}` })
      .where(eq(inquiries.id, p('id')))
      .prepare()
    return {
      InquiryOpened(fact) {
        const { inquiryId, userId, subject, inquiry } = fact.data
        insertInquiry.run({ id: inquiryId, userId, subject, inquiry, at: fact.at })
      },
      InquiryAnswered(fact) {
        answer.run({ reply: fact.data.reply, at: fact.at, id: fact.data.inquiryId })
      },
    }
  },
})
