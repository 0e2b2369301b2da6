// A JSON array gzipped from groups of its items, each group compressed once and kept while its
// items are the same (issue 18's soak). During a sale the listing changes with every new fact, one
// event at a time; gzipping the whole of it again for each was the part of a listing's cost that
// grew with the tickets sold (every event object lists its attendees). Here only the group holding
// the changed event is compressed again; the rest are copied.
//
// Each group is raw deflate ending in a full flush (byte-aligned), so groups compressed apart join
// into one valid deflate stream; the gzip header, a last empty block and the trailer (CRC-32 and
// length of the whole text) make it one ordinary gzip member. Each group is compressed with the
// text just before it (the previous group and its comma) as its dictionary: the reader has that
// text in its window when it reaches the group, so the group may point back into it as deflate
// does within one stream, and a group is kept only while the group before it is the same too.
// Without it every group started from nothing and the listing of 1,000 events was 52% bigger than
// gzipped whole. A group ends after an item whose id says so (about one in MARK_EVERY, the same
// whatever else changes) once it holds GROUP_MIN_BYTES of text, or anywhere once it holds
// GROUP_MAX_BYTES; ending them at marked ids keeps the same groups when an item before them grows
// or shrinks (after a group or two, the boundaries fall where they fell before).
import { constants, crc32, deflateRawSync } from 'node:zlib'

/** an item of the array: its id (where groups end) and its JSON, the same object while unchanged */
export type GzipItem = { readonly id: string; readonly json: string }

/** zlib's default: a group of 16–64 kB takes 0.1–0.4 ms, and only changed groups are compressed again */
const LEVEL = 6
const MARK_EVERY = 4
const GROUP_MIN_BYTES = 16 * 1024
const GROUP_MAX_BYTES = 64 * 1024
/** how far back deflate may point */
const WINDOW_BYTES = 32 * 1024

const piece = (text: string, dictionary?: Buffer) =>
  deflateRawSync(text, {
    level: LEVEL,
    finishFlush: constants.Z_FULL_FLUSH,
    ...(dictionary ? { dictionary } : {}),
  })
const OPEN = piece('[')
const COMMA = piece(',')
const CLOSE = piece(']')
/** magic, deflate, no flags, no time, no extra flags, unknown system */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** the last block: empty */
const LAST = deflateRawSync(Buffer.alloc(0), { level: LEVEL })

/**
 * a group's compressed text, found by its first item and kept while its items, and the items of
 * the group before it (its dictionary), are the same
 */
const groups = new WeakMap<GzipItem, { items: GzipItem[]; before: GzipItem[]; deflated: Buffer }>()

/** whether a group may end after this id (a hash of it: the same ids, whatever else changes) */
const marked = (id: string) => {
  let hash = 0
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) | 0
  return (hash >>> 0) % MARK_EVERY === 0
}

const sameItems = (a: readonly GzipItem[], b: readonly GzipItem[]) =>
  a.length === b.length && a.every((item, i) => item === b[i])

const textOf = (items: readonly GzipItem[]) => items.map((item) => item.json).join(',')

/** `before`: the group before this one, none for the first */
function deflatedGroup(items: GzipItem[], before: GzipItem[]): Buffer {
  const first = items[0] as GzipItem
  const kept = groups.get(first)
  if (kept && sameItems(kept.items, items) && sameItems(kept.before, before)) return kept.deflated
  // what the reader has just inflated: the group before and the comma after it
  const dictionary = before.length > 0 ? Buffer.from(`${textOf(before)},`).subarray(-WINDOW_BYTES) : undefined
  const deflated = piece(textOf(items), dictionary)
  groups.set(first, { items, before, deflated })
  return deflated
}

/** `[a,b,…]` gzipped: `text` is that array as JSON (the items joined), `items` its items in order */
export function gzipJsonArray(text: string, items: readonly GzipItem[]): Buffer {
  const out: Buffer[] = [HEADER, OPEN]
  let group: GzipItem[] = []
  let before: GzipItem[] = []
  let bytes = 0
  const close = () => {
    if (group.length === 0) return
    if (before.length > 0) out.push(COMMA)
    out.push(deflatedGroup(group, before))
    before = group
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
