// Waits for ledger streams to grow, for everyone in a process at once: a wait is woken at once by
// an append of this process, and by one tail of the ledger every `pollMs` for all the waits of the
// process (appends of other processes), where each wait used to read its own stream every 250 ms.
// A thousand buyers waiting for their payments' outcome were four thousand reads a second; on
// PostgreSQL, where a statement costs the server far more than on SQLite, that took most of a core
// during a sale. The shared read tails the ledger (LedgerPort.tail): on PostgreSQL a fact may commit
// below a position already read, and the tail still reads it, so a wait needs no read of its own
// but a slow safety net (`fallbackMs`) for a shared read that failed. (It read the newest positions
// before, which could miss such a fact, and each wait read its stream every 2 s to cover that: a
// thousand waits were 500 reads a second, which on PostgreSQL made a sale's purchases cost more the
// longer they waited.)
import type { LedgerCursor, LedgerPort } from '../db/store.ts'

export type StreamWaits = ReturnType<typeof streamWaits>

export function streamWaits(
  ledger: Pick<LedgerPort<unknown>, 'onAppend' | 'tail' | 'tailHead'>,
  options: { pollMs?: number; fallbackMs?: number; page?: number } = {},
) {
  const pollMs = options.pollMs ?? 250
  const fallbackMs = options.fallbackMs ?? 15_000
  const page = options.page ?? 1000
  /** each stream waited on: its waits' wake-ups */
  const waiting = new Map<string, Set<() => void>>()
  /** where the shared read stands; null while nobody waits (or until the ledger answered) */
  let cursor: LedgerCursor | null = null
  let running = false
  let starting: Promise<void> | null = null
  let timer: NodeJS.Timeout | null = null
  let unsubscribe: (() => void) | null = null
  let reading = false

  const wake = (stream: string) => {
    for (const woken of waiting.get(stream) ?? []) woken()
  }

  /** the facts appended since the last read, by anyone: their streams' waits woken */
  const poll = async () => {
    if (reading || !running) return
    reading = true
    try {
      cursor ??= await ledger.tailHead()
      for (let pages = 0; pages < 10 && running; pages++) {
        const tailed = await ledger.tail(cursor, page)
        for (const { fact, cursor: after } of tailed) {
          cursor = after
          wake(fact.stream)
        }
        if (tailed.length < page) break
      }
    } catch {
      // the next poll reads again; each wait's own read covers the meantime
    } finally {
      reading = false
    }
  }

  /** the shared read starts with the first wait, from the head as it is before its stream's read */
  const start = () => {
    if (running) return Promise.resolve()
    starting ??= (async () => {
      running = true
      unsubscribe = ledger.onAppend((_head, grown) => {
        for (const stream of grown) wake(stream)
      })
      // when the ledger does not answer, the first poll asks again; each wait's own read covers the meantime
      cursor = await ledger.tailHead().catch(() => null)
      timer = setInterval(() => void poll(), pollMs)
      timer.unref()
    })().finally(() => {
      starting = null
      // the waits may all have ended while it started
      stopIfIdle()
    })
    return starting
  }

  const stopIfIdle = () => {
    if (waiting.size > 0 || starting) return
    if (timer) clearInterval(timer)
    unsubscribe?.()
    timer = null
    unsubscribe = null
    cursor = null
    running = false
  }

  return {
    /**
     * Watches a stream: `grew` says whether it may have grown since it was last cleared, `next()`
     * resolves when it may have (or after the fallback's time, or `untilMs`), `stop()` ends it.
     * Watch before reading the stream, so no append after the read goes unheard.
     */
    async watch(stream: string) {
      let woken: () => void = () => {}
      const state = { grew: false }
      const onGrow = () => {
        state.grew = true
        woken()
      }
      const set = waiting.get(stream) ?? new Set()
      set.add(onGrow)
      waiting.set(stream, set)
      await start()
      return {
        get grew() {
          return state.grew
        },
        clear() {
          state.grew = false
        },
        next(untilMs = fallbackMs) {
          return new Promise<void>((resolve) => {
            if (state.grew) return resolve()
            const timeout = setTimeout(resolve, Math.max(0, Math.min(untilMs, fallbackMs)))
            woken = () => {
              clearTimeout(timeout)
              resolve()
            }
          })
        },
        stop() {
          woken = () => {}
          const left = waiting.get(stream)
          left?.delete(onGrow)
          if (left && left.size === 0) waiting.delete(stream)
          stopIfIdle()
        },
      }
    },
    /** how many streams are waited on (tests) */
    get watched() {
      return waiting.size
    },
  }
}
