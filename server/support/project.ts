import { eq } from 'drizzle-orm'
import { projection } from '../ledger/ledger.ts'
import type { SupportFact } from './facts.ts'
import { inquiries } from './tables.ts'

export const supportProjection = projection<SupportFact>({
  name: 'support',
  tables: [inquiries],
  handlers: {
    InquiryOpened(fact, db) {
      const { inquiryId, userId, subject, inquiry } = fact.data
      db.insert(inquiries)
        .values({
          id: inquiryId,
          userId,
          subject,
          inquiry,
          status: 'Pending',
          reply: null,
          createdAt: fact.at,
          repliedAt: null,
        })
        .run()
    },
    InquiryAnswered(fact, db) {
      db.update(inquiries)
        .set({ status: 'Replied', reply: fact.data.reply, repliedAt: fact.at })
        .where(eq(inquiries.id, fact.data.inquiryId))
        .run()
    },
  },
})
