// waitlist/project.ts on PostgreSQL, in the append's transaction.
import type { PgProjection } from '../ledger/pg-ledger.ts'

type Data = Record<string, unknown>
const data = (fact: { data: unknown }) => fact.data as Data

const to =
  (status: string): PgProjection['handlers'][string] =>
  async (fact, tx) => {
    const d = data(fact)
    await tx.query('UPDATE waitlist_entries SET status = $1, offer_until = $2 WHERE entry_id = $3', [
      status,
      d.offerUntil ?? null,
      d.entryId,
    ])
  }

export const pgWaitlistProjection: PgProjection = {
  name: 'waitlist',
  handlers: {
    async WaitlistJoined(fact, tx) {
      const d = data(fact)
      await tx.query(
        `INSERT INTO waitlist_entries (entry_id, event_id, ticket_type_id, ticket_type, account_id, quantity,
           status, seq, offer_until, joined_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'waiting', $7, NULL, $8)`,
        [d.entryId, d.eventId, d.ticketTypeId, d.ticketType, d.accountId, d.quantity, fact.position, fact.at],
      )
    },
    WaitlistLeft: to('left'),
    WaitlistOffered: to('offered'),
    WaitlistOfferLapsed: to('lapsed'),
    WaitlistServed: to('served'),
  },
}
