// Listings put together once per ledger head: while nothing happens, every reader gets the same
// bytes; the first read after a new fact joins them again from the events' objects, of which only
// the changed ones are made again (fragments.ts). A client that takes gzip (every browser) gets them
// compressed, also once per head, from groups of events of which only the changed ones are
// compressed again (gzip-groups.ts). Issue 18: a listing of 1,000 events is ~0.6 MB of JSON, several
// times less gzipped, and sending the bytes was most of its cost.
import { gzipJsonArray } from '../http/gzip-groups.ts'
import type { EventFragments, Fragment } from './fragments.ts'
import type { EventRow } from './views.ts'

/** below this, a body goes as it is */
const GZIP_FROM = 1024

/** whether an Accept-Encoding takes gzip (not refused with q=0) */
export function takesGzip(accept: string | string[] | undefined): boolean {
  // the same few headers come again and again (each browser sends its own every time)
  if (typeof accept === 'string') {
    let takes = gzipTakers.get(accept)
    if (takes === undefined) {
      takes = takesGzipParsed(accept)
      if (gzipTakers.size >= 100) gzipTakers.clear()
      gzipTakers.set(accept, takes)
    }
    return takes
  }
  return takesGzipParsed(accept)
}
const gzipTakers = new Map<string, boolean>()

function takesGzipParsed(accept: string | string[] | undefined): boolean {
  for (const part of String(accept ?? '').split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';')
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    return q === undefined || Number(q.slice(2)) > 0
  }
  return false
}

/**
 * A listing: its events' objects, their length joined, and (made when first asked for) the JSON
 * text and its gzip (gzip-groups.ts, which never makes the whole text).
 */
type Body = { items: Fragment[]; length: number; json?: string; gzipped?: Buffer }

/** a listing's bytes as they go: gzipped (for a client that takes it) or the JSON text */
export type ListingBytes = { gzip: true; bytes: Buffer } | { gzip: false; bytes: string }

export function listingCache(fragments: Pick<EventFragments, 'of'>) {
  const lists: { head: number; bodies: Map<string, Body>; count?: number } = { head: -1, bodies: new Map() }
  /**
   * the cache as of the ledger's head (read once per request): emptied when a fact came since; a
   * request that read an older head may use what is kept (it is newer) but keeps nothing
   */
  const at = (head: number) => {
    if (head > lists.head) {
      lists.head = head
      lists.bodies.clear()
      lists.count = undefined
    }
  }

  return {
    /**
     * The listing named `key` (its rows read by `rows` when it is not kept) as of `head`, its media
     * URLs absolute against `base`, as the bytes to send: gzipped when `gzip` (the client takes it)
     * and the listing is long enough to be worth it.
     */
    async bytes(
      head: number,
      base: string,
      key: string,
      rows: () => Promise<EventRow[]>,
      gzip: boolean,
    ): Promise<ListingBytes> {
      at(head)
      const cacheKey = `${base} ${key}`
      let body = lists.bodies.get(cacheKey)
      if (body === undefined) {
        const items = await fragments.of(rows, base)
        body = { items, length: items.reduce((n, item) => n + item.json.length + 1, 1) }
        // kept only under the head this request read: a newer fact may have come while it was made
        if (lists.head === head && lists.bodies.size < 100) lists.bodies.set(cacheKey, body)
      }
      if (body.length >= GZIP_FROM && gzip) {
        body.gzipped ??= gzipJsonArray(body.items)
        return { gzip: true, bytes: body.gzipped }
      }
      body.json ??= `[${body.items.map((item) => item.json).join(',')}]`
      return { gzip: false, bytes: body.json }
    },

    /** how many events the listing has as of `head` (read by `count` once per head) */
    async count(head: number, count: () => Promise<number>): Promise<number> {
      at(head)
      const total = lists.count ?? (await count())
      if (lists.head === head) lists.count = total
      return total
    },
  }
}
