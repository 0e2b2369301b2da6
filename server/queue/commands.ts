// The waiting rooms' decisions (issue 41), each under its event's room lock, against the room's row
// as the projection keeps it in the same transaction: so joins, the opening and admissions happen
// one at a time in any number of processes, and a join is early or late as the opening found it.
import { randomBytes } from 'node:crypto'
import type { BookingQueries } from '../booking/queries.ts'
import { decisionLocks, type LedgerPort, type Step, type StepQueries, wait } from '../db/store.ts'
import { notFound } from '../errors.ts'
import { streams } from '../ids.ts'
import type { FactMeta, StoredFact } from '../ledger/ledger.ts'
import * as room from './decide.ts'
import type { QueueFact } from './facts.ts'
import type { QueueQueries } from './queries.ts'

export type QueueReads = {
  queue: StepQueries<QueueQueries>
  booking: StepQueries<Pick<BookingQueries, 'available' | 'unsold' | 'eventCancelled'>>
}
export type QueueLedger = Pick<LedgerPort<QueueReads>, 'transaction' | 'transactionInBatch'>

export const NO_SALE_TIME = 'This event has no sale time set.'

/** a pre-queue draw: 48 random bits as fixed-width hex (ranked as text on both stores) */
const randomDraw = () => randomBytes(6).toString('hex')

export type QueueRules = {
  admissionMinutes: number
  /** without a set rate: admit while fewer checkouts than this are in progress */
  checkoutTarget: number
}

export function queueCommands(ledger: QueueLedger, rules: QueueRules, draw = randomDraw) {
  type Tx = Parameters<Parameters<QueueLedger['transaction']>[0]>[0]

  /** the room's facts for `decide`, appended at the room's version; the facts appended */
  function* step(
    tx: Tx,
    eventId: string,
    decide: (state: room.Room | undefined) => QueueFact[],
    meta: FactMeta,
  ): Step<StoredFact<QueueFact>[]> {
    const state = yield* wait(tx.reads.queue.room(eventId))
    const facts = decide(state)
    if (facts.length === 0) return []
    return yield* wait(tx.append(streams.room(eventId), state?.version ?? 0, facts, meta))
  }

  const existing = (state: room.Room | undefined) => {
    if (!state) throw notFound(NO_SALE_TIME)
    return state
  }

  const system: FactMeta = { actor: 'system' }

  /** the room of an event called off closes, opened or not (nothing when it has none, or is closed) */
  const closeCalledOff = (tx: Tx, eventId: string, now: string) =>
    step(tx, eventId, (state) => (state ? room.close(state, false, now, true) : []), system)

  return {
    setOnSale: (
      change: {
        eventId: string
        organizerId: string
        opensAt: string
        waitingRoom: boolean
        admitPerMinute: number | null
        typeOpens?: Array<{ ticketTypeId: string; opensAt: string }>
      },
      meta: FactMeta,
    ) =>
      ledger.transaction((tx) => step(tx, change.eventId, (state) => room.setOnSale(state, change), meta), {
        lock: decisionLocks.queue(change.eventId),
      }),

    /** an event called off: its line closes at once, opened or not (nothing when it has no room) */
    callOff: (eventId: string, now = new Date().toISOString()) =>
      ledger.transaction((tx) => closeCalledOff(tx, eventId, now), { lock: decisionLocks.queue(eventId) }),

    /**
     * the account in line (its place kept when it is already); the facts appended. Joins are a big
     * on-sale's hot write (thousands in its first seconds): those arriving together share one
     * commit (group commit), each still decided in turn against what the ones before it wrote.
     */
    join: (eventId: string, accountId: string, meta: FactMeta, now = new Date().toISOString()) =>
      ledger.transactionInBatch(
        function* (tx) {
          // the sale due to open opens first: whoever joins from then on is at the back
          const opened = yield* step(tx, eventId, (state) => room.open(existing(state), now), system)
          if (yield* wait(tx.reads.queue.place(eventId, accountId))) return opened
          const joined = yield* step(
            tx,
            eventId,
            (state) => room.join(existing(state), accountId, now, draw),
            meta,
          )
          return [...opened, ...joined]
        },
        { lock: decisionLocks.queue(eventId) },
      ),

    /**
     * The room's next step: opened when due, closed when the event is sold out (`ticketTypeIds`:
     * the event's), or the next admissions; the facts appended. `capacityOnly`: nothing unless the
     * room follows capacity (no set rate), as read under its lock (a checkout that ended moves such
     * a room on at once; a set rate's admissions are earned by time, on the regular tick).
     */
    tick: (
      eventId: string,
      ticketTypeIds: readonly string[],
      now = new Date().toISOString(),
      { capacityOnly = false }: { capacityOnly?: boolean } = {},
    ) =>
      ledger.transaction(
        function* (tx) {
          if (capacityOnly) {
            const state = yield* wait(tx.reads.queue.room(eventId))
            if (!state?.waitingRoom || state.admitPerMinute !== null || state.closedAt !== null) return []
          }
          // an event called off: its room closes, opened or not, and nobody more is admitted (as
          // its cancellation's job does at once: callOff; this is the regular tick's net)
          if (!capacityOnly && (yield* wait(tx.reads.booking.eventCancelled(eventId))))
            return yield* closeCalledOff(tx, eventId, now)
          const opened = yield* step(tx, eventId, (state) => (state ? room.open(state, now) : []), system)
          // Sold out is every seat sold: seats only held (or offered to a waiting list) may come
          // back, and those still in line are the ones to have them, so the room stays on (a room
          // closed then let anyone buy them without an admission). While every seat left is held,
          // nobody more is admitted: an admission would run out with nothing to buy.
          let nothingOnSale = ticketTypeIds.length > 0
          for (const id of ticketTypeIds)
            if ((yield* wait(tx.reads.booking.available({ id }))) > 0) nothingOnSale = false
          // the seats not sold are read only when none is on sale (a seat on sale is not sold)
          let soldOut = nothingOnSale
          if (nothingOnSale)
            for (const id of ticketTypeIds)
              if ((yield* wait(tx.reads.booking.unsold(id))) > 0) soldOut = false
          const closed = yield* step(
            tx,
            eventId,
            (state) => (state ? room.close(state, soldOut, now) : []),
            system,
          )
          if (closed.length > 0) return [...opened, ...closed]
          if (nothingOnSale) return opened
          const inCheckout = yield* wait(tx.reads.queue.inCheckout(eventId, now))
          const admitted = yield* step(
            tx,
            eventId,
            (state) => (state ? room.admit(state, now, { ...rules, inCheckout }) : []),
            system,
          )
          return [...opened, ...admitted]
        },
        { lock: decisionLocks.queue(eventId) },
      ),

    pause: (eventId: string, by: string, meta: FactMeta, now = new Date().toISOString()) =>
      ledger.transaction((tx) => step(tx, eventId, (state) => room.pause(existing(state), by, now), meta), {
        lock: decisionLocks.queue(eventId),
      }),

    resume: (eventId: string, by: string, meta: FactMeta, now = new Date().toISOString()) =>
      ledger.transaction((tx) => step(tx, eventId, (state) => room.resume(existing(state), by, now), meta), {
        lock: decisionLocks.queue(eventId),
      }),
  }
}

export type QueueCommands = ReturnType<typeof queueCommands>
