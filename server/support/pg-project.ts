// project.ts on PostgreSQL (issue 15): the same rows from the same facts, in the append's transaction.
import type { StoredFact } from '../ledger/ledger.ts'
import type { PgProjection, PgTx } from '../ledger/pg-ledger.ts'
import type { SupportFact } from './facts.ts'

type Handlers = {
  [T in SupportFact['type']]: (fact: StoredFact<Extract<SupportFact, { type: T }>>, tx: PgTx) => Promise<void>
}

const handlers: Handlers = {
  async InquiryOpened(fact, tx) {
    const { inquiryId, userId, subject, inquiry } = fact.data
    await tx.query(
      `INSERT INTO inquiries (id, user_id, subject, inquiry, status, reply, created_at, replied_at)
       VALUES ($1, $2, $3, $4, 'Pending', NULL, $5, NULL)`,
      [inquiryId, userId, subject, inquiry, fact.at],
    )
  },
  async InquiryAnswered(fact, tx) {
    await tx.query("UPDATE inquiries SET status = 'Replied', reply = $1, replied_at = $2 WHERE id = $3", [
      fact.data.reply,
      fact.at,
      fact.data.inquiryId,
    ])
  },
}

export const pgSupportProjection: PgProjection = {
  name: 'support',
  handlers: handlers as PgProjection['handlers'],
}
