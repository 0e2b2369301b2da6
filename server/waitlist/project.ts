// Folds the waiting lists' facts into waitlist_entries (issue 17).
import { eq, sql } from 'drizzle-orm'
import { projection } from '../ledger/ledger.ts'
import type { EntryStatus } from './decide.ts'
import type { WaitlistFact } from './facts.ts'
import { waitlistEntries } from './tables.ts'

const p = sql.placeholder

export const waitlistProjection = projection<WaitlistFact>({
  name: 'waitlist',
  tables: [waitlistEntries],
  handlers(db) {
    const insert = db
      .insert(waitlistEntries)
      .values({
        entryId: p('entryId'),
        eventId: p('eventId'),
        ticketTypeId: p('ticketTypeId'),
        ticketType: p('ticketType'),
        accountId: p('accountId'),
        quantity: p('quantity'),
        status: 'waiting',
        seq: p('seq'),
        offerUntil: null,
        joinedAt: p('at'),
      })
      .prepare()
    const setStatus = db
      .update(waitlistEntries)
      .set({ status: sql`${p('status')}`, offerUntil: sql`${p('offerUntil')}` })
      .where(eq(waitlistEntries.entryId, p('entryId')))
      .prepare()
    const to = (status: EntryStatus) => (fact: { data: { entryId: string; offerUntil?: string } }) =>
      setStatus.run({ status, offerUntil: fact.data.offerUntil ?? null, entryId: fact.data.entryId })
    return {
      WaitlistJoined(fact) {
        const d = fact.data
        insert.run({ ...d, seq: fact.position, at: fact.at })
      },
      WaitlistLeft: to('left'),
      WaitlistOffered: to('offered'),
      WaitlistOfferLapsed: to('lapsed'),
      WaitlistServed: to('served'),
    }
  },
})
