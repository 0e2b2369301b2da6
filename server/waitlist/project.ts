// Folds the waiting lists' facts into waitlist_entries (issue 17), on either store.
import { sql } from 'drizzle-orm'
import { type Sql, statement } from '../db/sql.ts'
import { readProjection } from '../ledger/read-projection.ts'
import type { EntryStatus } from './decide.ts'
import type { WaitlistFact } from './facts.ts'
import { waitlistEntries } from './tables.ts'

const insert = statement<{
  entryId: string
  eventId: string
  ticketTypeId: string
  ticketType: string
  accountId: string
  quantity: number
  seq: number
  at: string
}>(
  (
    p,
  ) => sql`INSERT INTO waitlist_entries (entry_id, event_id, ticket_type_id, ticket_type, account_id, quantity,
      status, seq, offer_until, joined_at)
    VALUES (${p.entryId}, ${p.eventId}, ${p.ticketTypeId}, ${p.ticketType}, ${p.accountId}, ${p.quantity},
      'waiting', ${p.seq}, NULL, ${p.at})`,
)

const setStatus = statement<{ entryId: string; status: EntryStatus; offerUntil: string | null }>(
  (p) => sql`UPDATE waitlist_entries SET status = ${p.status}, offer_until = ${p.offerUntil}
    WHERE entry_id = ${p.entryId}`,
)

/** the entry's status now, and its offer's end (only an offer has one) */
const to = (status: EntryStatus) => (fact: { data: { entryId: string; offerUntil?: string } }, x: Sql) =>
  x.run(setStatus, { entryId: fact.data.entryId, status, offerUntil: fact.data.offerUntil ?? null })

export const waitlistProjection = readProjection<WaitlistFact>({
  name: 'waitlist',
  tables: [waitlistEntries],
  handlers: {
    WaitlistJoined: (fact, x) => {
      const { entryId, eventId, ticketTypeId, ticketType, accountId, quantity } = fact.data
      return x.run(insert, {
        entryId,
        eventId,
        ticketTypeId,
        ticketType,
        accountId,
        quantity,
        seq: fact.position,
        at: fact.at,
      })
    },
    WaitlistLeft: to('left'),
    WaitlistOffered: to('offered'),
    WaitlistOfferLapsed: to('lapsed'),
    WaitlistServed: to('served'),
  },
})
