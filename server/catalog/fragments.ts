// Each event's part of the listings and of its own page (its event object of API.md as JSON), made
// once per change of that event, not once per ledger head for the whole listing (issue 18). An
// event object carries its attendees (`candidates`), so during a sale the listing grows with every
// ticket sold; built again whole for every new fact, it kept the server's core busier minute by
// minute (the soak's p99 climbed 1.4 times in ten minutes).
//
// Which events changed is read from the ledger itself: before answering, the facts since the last
// look are read (a few, under load) and the events they touch are marked. Every process reads the
// same ledger, so a change made by another process is seen as surely as one made here. The ledger is
// read as it is tailed (LedgerPort.peek), so no fact is passed over: on PostgreSQL a fact that
// commits behind one already read is still read.
import type { LedgerCursor, TailedFact } from '../db/store.ts'
import type { StoredFact } from '../ledger/ledger.ts'
import type { EventRow } from './views.ts'

/** an event's object as JSON, the same object for as long as it is kept (gzip-groups.ts reuses
 * what it compressed of it) */
export type Fragment = { readonly id: string; readonly version: number; readonly json: string }

/** what the fragments need of the ledger (either store's) */
type LedgerReads = {
  head(): Promise<number>
  peek(after: LedgerCursor, limit?: number): Promise<Array<TailedFact & { settled: boolean }>>
  tailHead(): Promise<LedgerCursor>
}

export type FragmentParts = {
  ledger: LedgerReads
  /** the event of an order (booking's), when its fact does not say */
  eventOfOrder: (orderId: string) => Promise<string | undefined>
  /** the event of a ticket type (a waiting list's stream is named by it) */
  eventOfTicketType: (ticketTypeId: string) => Promise<string | undefined>
  /** the events' objects as JSON, one string per row in the same order, against a media base */
  build: (rows: EventRow[], mediaBase: string) => Promise<string[]>
}

/** past this many facts behind, everything is built again rather than the facts read one by one */
const CATCH_UP_MAX = 5_000
const PAGE = 1_000
/** media bases kept (the asker's origin outside production; one in production) */
const BASES_MAX = 8

/** Stream kinds whose facts never change an event's object. Anything not named here or below
 * (a kind added later) empties every fragment: stale is worse than slow. */
const UNRELATED = new Set(['account', 'inquiry', 'session', 'notice', 'ticket'])

export function eventFragments(parts: FragmentParts) {
  /** per media base: event id → its JSON, with the event's version it was made from */
  const byBase = new Map<string, Map<string, Fragment>>()
  /** changes seen per event: a fragment made while its event changed is not kept */
  const changes = new Map<string, number>()
  let everything = 0
  /** where the ledger was read up to (null: never), and its head then */
  let seen: LedgerCursor | null = null
  let seenHead = 0

  const changed = (eventId: string) => {
    changes.set(eventId, (changes.get(eventId) ?? 0) + 1)
    for (const fragments of byBase.values()) fragments.delete(eventId)
  }
  const changedAll = () => {
    everything++
    byBase.clear()
  }

  /** the event a fact may change; null: none; 'all': cannot tell */
  const eventOf = async (fact: StoredFact): Promise<string | null | 'all'> => {
    const dash = fact.stream.indexOf('-')
    const kind = fact.stream.slice(0, dash)
    const id = fact.stream.slice(dash + 1)
    if (kind === 'event') return id
    if (kind === 'order') {
      const data = fact.data as { eventId?: unknown }
      return typeof data.eventId === 'string' ? data.eventId : ((await parts.eventOfOrder(id)) ?? 'all')
    }
    if (kind === 'waitlist') return (await parts.eventOfTicketType(id)) ?? 'all'
    return UNRELATED.has(kind) ? null : 'all'
  }

  /** marks what changed since the last look */
  const catchUp = async () => {
    const head = await parts.ledger.head()
    if (seen === null || head - seenHead > CATCH_UP_MAX || head < seenHead) {
      changedAll()
      seen = await parts.ledger.tailHead()
      seenHead = head
      return
    }
    seenHead = head
    // Every fact committed since is marked, the settled ones moving `seen` on; one that an older
    // transaction still running holds back (PostgreSQL) is marked now and again once settled, so an
    // answer never lags a commit its asker has seen.
    for (;;) {
      const facts = await parts.ledger.peek(seen, PAGE)
      for (const { fact, cursor, settled } of facts) {
        const event = await eventOf(fact)
        if (event === 'all') changedAll()
        else if (event !== null) changed(event)
        if (settled) seen = cursor
      }
      if (facts.length < PAGE) break
      if (!facts.at(-1)?.settled) {
        // a page of facts held back: too many to mark one by one
        changedAll()
        break
      }
    }
  }

  return {
    /**
     * The events' objects as JSON, in the rows' order: kept ones as they are, the others made. The
     * rows are read after the ledger is caught up with, so none is older than what was marked.
     */
    async of(readRows: () => Promise<EventRow[]>, mediaBase: string): Promise<Fragment[]> {
      await catchUp()
      const rows = await readRows()
      if (!byBase.has(mediaBase) && byBase.size >= BASES_MAX) byBase.clear()
      const fragments = byBase.get(mediaBase) ?? new Map<string, Fragment>()
      byBase.set(mediaBase, fragments)
      const answer = new Map<string, Fragment>()
      for (const row of rows) {
        const kept = fragments.get(row.id)
        if (kept?.version === row.version) answer.set(row.id, kept)
      }
      const missing = rows.filter((row) => !answer.has(row.id))
      if (missing.length > 0) {
        const before = { everything, changes: missing.map((row) => changes.get(row.id) ?? 0) }
        const made = await parts.build(missing, mediaBase)
        for (const [i, row] of missing.entries()) {
          const fragment: Fragment = { id: row.id, version: row.version, json: made[i] as string }
          answer.set(row.id, fragment)
          // kept only when nothing about the event was seen to change while it was made
          if (before.everything === everything && (changes.get(row.id) ?? 0) === before.changes[i])
            byBase.get(mediaBase)?.set(row.id, fragment)
        }
      }
      return rows.map((row) => answer.get(row.id) as Fragment)
    },
  }
}

export type EventFragments = ReturnType<typeof eventFragments>
