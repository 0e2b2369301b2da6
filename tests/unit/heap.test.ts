// The heap's growth between full collections (server/heap.ts): steady for a server, tighter while a
// process holds a waiting room's line of connections, and left alone when node was given its own.
import { afterAll, describe, expect, it } from 'vitest'
import {
  HEAP_GROWING_PERCENT,
  heapForConnections,
  MANY_CONNECTIONS,
  MANY_CONNECTIONS_HEAP_PERCENT,
  steadyHeap,
} from '../../server/heap.ts'

describe('the heap as connections come and go', () => {
  afterAll(() => steadyHeap())

  it('is not touched while no steady growth was set (node given its own flag)', () => {
    steadyHeap(30, ['--heap-growing-percent=30'])
    expect(heapForConnections(MANY_CONNECTIONS * 2)).toBeNull()
  })

  it('grows less past many connections, and steadily again well under them', () => {
    steadyHeap(HEAP_GROWING_PERCENT, [])
    expect(heapForConnections(10)).toBe(HEAP_GROWING_PERCENT)
    expect(heapForConnections(MANY_CONNECTIONS - 1)).toBe(HEAP_GROWING_PERCENT)
    expect(heapForConnections(MANY_CONNECTIONS)).toBe(MANY_CONNECTIONS_HEAP_PERCENT)
    // a few leaving at the edge change nothing: not back and forth with every socket
    expect(heapForConnections(MANY_CONNECTIONS - 10)).toBe(MANY_CONNECTIONS_HEAP_PERCENT)
    expect(heapForConnections(MANY_CONNECTIONS * 0.8)).toBe(MANY_CONNECTIONS_HEAP_PERCENT)
    expect(heapForConnections(MANY_CONNECTIONS * 0.8 - 1)).toBe(HEAP_GROWING_PERCENT)
  })

  it('never grows more than the steady growth an operator set lower', () => {
    steadyHeap(10, [])
    expect(heapForConnections(MANY_CONNECTIONS * 3)).toBe(10)
    expect(heapForConnections(0)).toBe(10)
  })
})
