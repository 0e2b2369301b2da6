// How far V8 lets its old generation grow past what the last full collection kept before it
// collects again (issue 18's soak). Left to itself V8 picks a factor from how fast it collects,
// about 1.9 for this server: ~80 MB live, so the heap grew to 150-190 MB between full collections,
// and the process's RSS rose and fell by 40 MB with it (the soak's RSS target missed, +12%). A
// long-running server is better served by a steady footprint: at a fixed 50% the soak's heap held
// 135 MB throughout (RSS +3.2%, p99 0.81x); at 25%, 124 MB (RSS +4%) but with its p99 about twice
// as high (at a somewhat higher rate: the two not separated). HEAP_GROWING_PERCENT sets another:
// a process holding a waiting room's 19,700 sockets stayed under 600 MB at 20 (docs/performance.md,
// "Waiting room"), at the cost of more frequent full collections, and a process holding that many
// connections now keeps that growth by itself (heapForConnections). A --heap-growing-percent given
// to node itself is left as it is.
import { setFlagsFromString } from 'node:v8'

export const HEAP_GROWING_PERCENT = 50

/** the growth steadyHeap set (null: none, node's own flag or V8's choice kept) */
let steady: number | null = null
/** whether the growth is the one for many connections now */
let tight = false

export function steadyHeap(percent = HEAP_GROWING_PERCENT, execArgv: readonly string[] = process.execArgv) {
  if (execArgv.some((flag) => /^--heap[-_]growing[-_]percent/.test(flag))) return
  setFlagsFromString(`--heap-growing-percent=${percent}`)
  steady = percent
  tight = false
}

/** live connections past which a process's heap is mostly theirs (a waiting room's line) */
export const MANY_CONNECTIONS = 5000
/** the growth such a process keeps */
export const MANY_CONNECTIONS_HEAP_PERCENT = 20

/**
 * Follows a process's live connections. Past MANY_CONNECTIONS its heap is mostly their state,
 * which every push to them all turns over: let grow by half between full collections, a process
 * holding a waiting room's 19,700 sockets peaked at 660-700 MB, at 20% under 600 (docs/performance.md,
 * "Waiting room"). So past them the heap grows by at most MANY_CONNECTIONS_HEAP_PERCENT, and by
 * the steady growth again once they fall under four fifths of that (not back and forth at the edge).
 * V8 reads the growth at each full collection. Nothing when steadyHeap set none. The growth now.
 */
export function heapForConnections(connections: number): number | null {
  if (steady === null) return null
  const wanted = connections >= MANY_CONNECTIONS ? true : connections < MANY_CONNECTIONS * 0.8 ? false : tight
  if (wanted !== tight) {
    tight = wanted
    setFlagsFromString(`--heap-growing-percent=${growth()}`)
  }
  return growth()
}

const growth = () => (tight ? Math.min(steady ?? 0, MANY_CONNECTIONS_HEAP_PERCENT) : (steady ?? 0))
