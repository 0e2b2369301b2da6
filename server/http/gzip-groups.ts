// A JSON array gzipped from groups of its items, each group compressed once and kept while its
// items are the same (issue 18's soak). During a sale the listing changes with every new fact, one
// event at a time; gzipping the whole of it again for each was the part of a listing's cost that
// grew with the tickets sold (every event object lists its attendees). Here only the group holding
// the changed event is compressed again; the rest are copied.
//
// Each group is raw deflate ending in a full flush (byte-aligned, no history kept), so groups
// compressed apart join into one valid deflate stream; the gzip header, a last empty block and the
// trailer (CRC-32 and length of the whole text) make it one ordinary gzip member. A group ends
// after an item whose id says so (about one in MARK_EVERY, the same whatever else changes) once it
// holds GROUP_MIN_BYTES of text, or anywhere once it holds GROUP_MAX_BYTES: deflate looks back
// 32 kB at most, so groups of this size compress nearly as well as the whole, and ending them at
// marked ids keeps the same groups when an item before them grows or shrinks (after a group or
// two, the boundaries fall where they fell before).
import { constants, crc32, deflateRawSync } from 'node:zlib'

/** an item of the array: its id (where groups end) and its JSON, the same object while unchanged */
export type GzipItem = { readonly id: string; readonly json: string }

/** zlib's fastest: it still makes the listings' JSON several times smaller */
const LEVEL = 1
const MARK_EVERY = 4
const GROUP_MIN_BYTES = 16 * 1024
const GROUP_MAX_BYTES = 64 * 1024

const piece = (text: string) => deflateRawSync(text, { level: LEVEL, finishFlush: constants.Z_FULL_FLUSH })
const OPEN = piece('[')
const COMMA = piece(',')
const CLOSE = piece(']')
/** magic, deflate, no flags, no time, no extra flags, unknown system */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** the last block: empty */
const LAST = deflateRawSync(Buffer.alloc(0), { level: LEVEL })

/** a group's compressed text, found by its first item and kept while its items are the same */
const groups = new WeakMap<GzipItem, { items: GzipItem[]; deflated: Buffer }>()

/** whether a group may end after this id (a hash of it: the same ids, whatever else changes) */
const marked = (id: string) => {
  let hash = 0
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) | 0
  return (hash >>> 0) % MARK_EVERY === 0
}

const sameItems = (a: readonly GzipItem[], b: readonly GzipItem[]) =>
  a.length === b.length && a.every((item, i) => item === b[i])

function deflatedGroup(items: GzipItem[]): Buffer {
  const first = items[0] as GzipItem
  const kept = groups.get(first)
  if (kept && sameItems(kept.items, items)) return kept.deflated
  const deflated = piece(items.map((item) => item.json).join(','))
  groups.set(first, { items, deflated })
  return deflated
}

/** `[a,b,…]` gzipped: `text` is that array as JSON (the items joined), `items` its items in order */
export function gzipJsonArray(text: string, items: readonly GzipItem[]): Buffer {
  const out: Buffer[] = [HEADER, OPEN]
  let group: GzipItem[] = []
  let bytes = 0
  const close = () => {
    if (group.length === 0) return
    if (out.length > 2) out.push(COMMA)
    out.push(deflatedGroup(group))
    group = []
    bytes = 0
  }
  for (const item of items) {
    group.push(item)
    bytes += item.json.length
    if ((bytes >= GROUP_MIN_BYTES && marked(item.id)) || bytes >= GROUP_MAX_BYTES) close()
  }
  close()
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc32(text) >>> 0, 0)
  trailer.writeUInt32LE(Buffer.byteLength(text) % 2 ** 32, 4)
  out.push(CLOSE, LAST, trailer)
  return Buffer.concat(out)
}
