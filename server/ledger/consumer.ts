// A consumer tails the ledger after commit, from its stored checkpoint: pushes, jobs and mail
// read facts this way, so a crash between commit and side effect loses nothing. It reads in the
// order the store tails the ledger (LedgerPort.tail: by position on SQLite, by (transaction,
// position) on PostgreSQL, where facts commit out of position order), and its checkpoint is the
// cursor of the last fact it handled.
import type { LedgerCursor, LedgerPort } from '../db/store.ts'
import type { StoredFact } from './ledger.ts'

/** what a consumer reads the ledger through */
export type ConsumedLedger = Pick<
  LedgerPort<unknown>,
  'tail' | 'peek' | 'tailHead' | 'cursorAt' | 'onAppend' | 'checkpoints'
>

export type ConsumerOptions = {
  /** facts read per round */
  batchSize?: number
  /** how often to look for facts appended by other processes */
  pollMs?: number
  /** wait before retrying a fact whose handler failed */
  retryMs?: number
  onError?: (error: unknown, fact: StoredFact) => void
  /** the store itself failed (a read or a checkpoint write): retried after retryMs */
  onStoreError?: (error: unknown) => void
  /**
   * 'stored' (default) keeps the position in the checkpoints table and resumes from it after a
   * restart; 'memory' starts at the ledger's head and keeps the position in this process only.
   */
  checkpoint?: 'stored' | 'memory'
  /** with an in-memory checkpoint: the position to start after (the fact there and all read before it), instead of the head */
  startAt?: number
  /**
   * Handles a round's facts together, in order, instead of one at a time (`handle` is then not
   * called): all of them or, when it fails, none (the round is handled again), so what it does
   * must allow a fact handled twice. A consumer that writes for its facts can write them in one
   * commit.
   */
  handleAll?: (facts: StoredFact[]) => Promise<void>
}

/** how soon a consumer looks again for facts that have committed but are not settled yet */
const BEHIND_MS = 10

export class Consumer {
  private running = false
  private loop: Promise<void> | null = null
  private wake: (() => void) | null = null
  private unsubscribe: (() => void) | null = null
  private cursor: LedgerCursor | null = null
  /** called with the checkpoint's position whenever a round finds nothing new */
  onIdle: ((position: number) => void) | null = null
  /** set when facts arrive while a round is running, so that wake-up is not lost */
  private woken = false

  constructor(
    private readonly ledger: ConsumedLedger,
    readonly name: string,
    private readonly handle: (fact: StoredFact) => void | Promise<void>,
    private readonly options: ConsumerOptions = {},
  ) {}

  /** the position of the last fact handled (or where it started) */
  async checkpoint(): Promise<number> {
    return (await this.at()).position
  }

  /** where it stands in the ledger's reading order */
  private async at(): Promise<LedgerCursor> {
    this.cursor ??=
      this.options.checkpoint === 'memory'
        ? this.options.startAt === undefined
          ? await this.ledger.tailHead()
          : await this.ledger.cursorAt(this.options.startAt)
        : ((await this.ledger.checkpoints.read(this.name)) ?? { position: 0 })
    return this.cursor
  }

  /**
   * Moves the checkpoint. A stored one is written at most every quarter second under load (each
   * write is a commit), and at once when a handler fails or the consumer stops; after a crash
   * the few facts since the last write are handled again, which their handlers allow (stable
   * job ids, idempotent pushes).
   */
  private async save(cursor: LedgerCursor, now = false) {
    this.cursor = cursor
    if (this.options.checkpoint === 'memory') return
    if (!now && Date.now() - this.writtenAt < 250) {
      this.unwritten = true
      return
    }
    this.writtenAt = Date.now()
    this.unwritten = false
    await this.ledger.checkpoints.write(this.name, cursor)
  }

  private writtenAt = 0
  private unwritten = false

  private async flush() {
    if (this.unwritten && this.cursor !== null) await this.save(this.cursor, true)
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.unsubscribe = this.ledger.onAppend(() => {
      this.woken = true
      this.wake?.()
    })
    this.loop = this.run()
  }

  async stop(): Promise<void> {
    this.running = false
    this.unsubscribe?.()
    this.wake?.()
    await this.loop
    await this.flush()
  }

  /** Processes everything committed up to now once; for commands and tests. */
  async drain(): Promise<number> {
    let handled = 0
    for (;;) {
      const { done, behind } = await this.round()
      if (done === 0 && !behind) {
        await this.flush()
        return handled
      }
      if (done === 0) await new Promise((r) => setTimeout(r, BEHIND_MS))
      handled += done
    }
  }

  /**
   * Handles the facts after the checkpoint that are settled (LedgerPort.peek); `behind` when more
   * have committed that are not yet (on PostgreSQL, while an older transaction still runs).
   */
  private async round(): Promise<{ done: number; behind: boolean }> {
    const read = await this.ledger.peek(await this.at(), this.options.batchSize ?? 500)
    const facts = read.filter((f) => f.settled)
    const behind = facts.length < read.length
    let done = 0
    try {
      const all = this.options.handleAll
      if (all) {
        if (facts.length > 0) await all(facts.map((f) => f.fact))
        done = facts.length
      } else
        for (const { fact } of facts) {
          await this.handle(fact)
          done++
        }
    } catch (error) {
      // Keep what was handled when a handler fails, so nothing is handled twice.
      const last = facts[done - 1]
      if (last) await this.save(last.cursor, true)
      else await this.flush()
      throw error
    }
    const last = facts[done - 1]
    if (last) await this.save(last.cursor)
    return { done, behind }
  }

  private async run() {
    const pollMs = this.options.pollMs ?? 100
    // Facts held back by an older transaction are looked for again soon, then less and less often
    // while nothing settles (a commit in this process wakes the consumer anyway): a cluster under
    // load, where some transaction is always open, would otherwise read the ledger 100 times a
    // second per consumer.
    let behindMs = BEHIND_MS
    while (this.running) {
      this.woken = false
      let handled = 0
      let behind = false
      try {
        ;({ done: handled, behind } = await this.round())
      } catch (error) {
        const next = await this.at()
          .then((cursor) => this.ledger.tail(cursor, 1))
          .then((facts) => facts[0]?.fact)
          .catch(() => undefined)
        if (next) this.options.onError?.(error, next)
        else this.options.onStoreError?.(error)
        await this.sleep(this.options.retryMs ?? 1000)
        continue
      }
      // Caught up only when nothing committed is left; facts held back are looked for again soon.
      if (handled > 0 || !behind) behindMs = BEHIND_MS
      if (handled === 0 && behind) {
        await this.sleep(behindMs)
        behindMs = Math.min(behindMs * 2, pollMs)
      } else if (handled === 0) {
        this.onIdle?.(await this.checkpoint())
        if (!this.woken) await this.sleep(pollMs)
      }
    }
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.wake = null
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.wake = done
    })
  }
}
