// Waits for ledger streams to grow, for everyone in a process at once: a wait is woken at once by
// an append of this process, and by one read of the ledger's newest facts every `pollMs` for all
// the waits of the process (appends of other processes), where each wait used to read its own
// stream every 250 ms. A thousand buyers waiting for their payments' outcome were four thousand
// reads a second; on PostgreSQL, where a statement costs the server far more than on SQLite, that
// took most of a core during a sale. Each wait still reads its stream itself every `fallbackMs`:
// on PostgreSQL a fact can commit below a position already read, which the shared read misses.
import type { LedgerPort } from '../db/store.ts'

export type StreamWaits = ReturnType<typeof streamWaits>

export function streamWaits(
  ledger: Pick<LedgerPort<unknown>, 'onAppend' | 'readFrom' | 'head'>,
  options: { pollMs?: number; fallbackMs?: number; page?: number } = {},
) {
  const pollMs = options.pollMs ?? 250
  const fallbackMs = options.fallbackMs ?? 2000
  const page = options.page ?? 1000
  /** each stream waited on: its waits' wake-ups */
  const waiting = new Map<string, Set<() => void>>()
  /** the position read up to; null while nobody waits */
  let cursor: number | null = null
  let starting: Promise<void> | null = null
  let timer: NodeJS.Timeout | null = null
  let unsubscribe: (() => void) | null = null
  let reading = false

  const wake = (stream: string) => {
    for (const woken of waiting.get(stream) ?? []) woken()
  }

  /** the facts appended since the last read, by anyone: their streams' waits woken */
  const poll = async () => {
    if (reading || cursor === null) return
    reading = true
    try {
      for (let pages = 0; pages < 10 && cursor !== null; pages++) {
        const facts = await ledger.readFrom(cursor, page)
        for (const fact of facts) {
          if (cursor !== null && fact.position > cursor) cursor = fact.position
          wake(fact.stream)
        }
        if (facts.length < page) break
      }
    } catch {
      // the next poll reads again; each wait's own read covers the meantime
    } finally {
      reading = false
    }
  }

  /** the shared read starts with the first wait, from the head as it is before its stream's read */
  const start = () => {
    if (cursor !== null) return Promise.resolve()
    starting ??= (async () => {
      unsubscribe = ledger.onAppend((_head, grown) => {
        for (const stream of grown) wake(stream)
      })
      try {
        cursor = await ledger.head()
      } catch {
        cursor = 0
      }
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
