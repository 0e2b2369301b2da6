// Listings put together once per ledger version (LedgerPort.version: the head on SQLite; on
// PostgreSQL more than the head, which a fact committing below it leaves as it was): while nothing happens, every reader gets the same
// bytes; the first read after a new fact joins them again from the events' objects, of which only
// the changed ones are made again (fragments.ts). A client that takes gzip (every browser) gets them
// compressed, also once per version, from groups of events of which only the changed ones are
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

/** a reply that is gzipped or not by the request's Accept-Encoding says so, added to what it varies
 * by already (CORS sets Origin: replaced, a shared cache could give one origin's answer to another) */
export function varyByEncoding(reply: {
  getHeader(name: string): unknown
  header(name: string, value: string): unknown
}): void {
  const vary = reply.getHeader('vary')
  reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding')
}

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
  const lists: { version: string; bodies: Map<string, Body>; count?: number } = {
    version: '',
    bodies: new Map(),
  }
  /**
   * the cache as of the ledger's version (read once per request): emptied when it differs, since a
   * fact came since (or, rarely, the request read the version before one that came: it starts the
   * cache again, which costs a listing made twice, never a stale one)
   */
  const at = (version: string) => {
    if (version !== lists.version) {
      lists.version = version
      lists.bodies.clear()
      lists.count = undefined
    }
  }

  return {
    /**
     * The listing named `key` (its rows read by `rows` when it is not kept) as of `version`, its media
     * URLs absolute against `base`, as the bytes to send: gzipped when `gzip` (the client takes it)
     * and the listing is long enough to be worth it.
     */
    async bytes(
      version: string,
      base: string,
      key: string,
      rows: () => Promise<EventRow[]>,
      gzip: boolean,
    ): Promise<ListingBytes> {
      at(version)
      const cacheKey = `${base} ${key}`
      let body = lists.bodies.get(cacheKey)
      if (body === undefined) {
        const items = await fragments.of(rows, base)
        body = { items, length: items.reduce((n, item) => n + item.json.length + 1, 1) }
        // kept only under the version this request read: a newer fact may have come while it was made
        if (lists.version === version && lists.bodies.size < 100) lists.bodies.set(cacheKey, body)
      }
      if (body.length >= GZIP_FROM && gzip) {
        body.gzipped ??= gzipJsonArray(body.items)
        return { gzip: true, bytes: body.gzipped }
      }
      body.json ??= `[${body.items.map((item) => item.json).join(',')}]`
      return { gzip: false, bytes: body.json }
    },

    /** how many events the listing has as of `version` (read by `count` once per version) */
    async count(version: string, count: () => Promise<number>): Promise<number> {
      at(version)
      const total = lists.count ?? (await count())
      if (lists.version === version) lists.count = total
      return total
    },
  }
}
