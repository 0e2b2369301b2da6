// The one byte range a Range header asks of a body (RFC 9110 §14.2), for media served from
// somewhere @fastify/static cannot reach (PostgreSQL). Several ranges are answered whole, as a
// server may; a range that starts past the end is unsatisfiable (416); anything malformed is
// ignored (200 with everything), as the RFC asks.
export type ByteRange = { start: number; end: number }

/** null: answer the whole body; 'unsatisfiable': 416; else the inclusive range to send with 206. */
export function byteRangeOf(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null
  const asked = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!asked) return null
  const [, first = '', last = ''] = asked
  if (first === '' && last === '') return null
  if (first === '') {
    // the last N bytes ("bytes=-500"): all of a shorter body, none of an empty one
    const suffix = Number(last)
    if (!Number.isSafeInteger(suffix)) return null
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last)
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return null
  if (start >= size) return 'unsatisfiable'
  return { start, end: Math.min(end, size - 1) }
}

/** Whether an If-Range (an entity tag or a date) still names what is stored: if not, send it whole. */
export function rangeStillFresh(
  ifRange: string | undefined,
  stored: { etag: string; lastModified: Date },
): boolean {
  if (ifRange === undefined) return true
  const value = ifRange.trim()
  // only a strong tag can be compared for a range (RFC 9110 §13.1.5)
  if (value.includes('"')) return value === stored.etag
  // a date must be exactly the Last-Modified sent (HTTP dates have whole seconds)
  return Date.parse(value) === Math.floor(stored.lastModified.getTime() / 1000) * 1000
}
