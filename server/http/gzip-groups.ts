// A JSON array gzipped from groups of its items, each group compressed once and kept while its
// items are the same (issue 18's soak). During a sale the listing changes with every new fact, one
// event at a time; gzipping the whole of it again for each was the part of a listing's cost that
// grew with the tickets sold (every event object lists its attendees). Here only the group holding
// the changed event is compressed again; the rest are copied.
//
// Each group is raw deflate ending in a full flush (byte-aligned), so groups compressed apart join
// into one valid deflate stream; the gzip header, a last empty block and the trailer (CRC-32 and
// length of the whole text) make it one ordinary gzip member. Each group is compressed with the
// last DICTIONARY_BYTES of the text just before it (the previous group and its comma) as its
// dictionary: the reader has that text in its window when it reaches the group, so the group may
// point back into it as deflate does within one stream, and a group is kept only while that text is
// the same too. Without it every group started from nothing and the listing of 1,000 events was 52%
// bigger than gzipped whole. A group ends after an item whose id says so (about one in MARK_EVERY,
// the same whatever else changes) once it holds GROUP_MIN_BYTES of text, or anywhere once it holds
// GROUP_MAX_BYTES; ending them at marked ids keeps the same groups when an item before them grows
// or shrinks (after a group or two, the boundaries fall where they fell before).
//
// What a change costs is the group it is in and the group after it (whose dictionary ends with the
// changed item: an event's version is its last field). So groups are small (8–16 kB), and an item
// of SOLO_BYTES or more is a group of its own, compressed in slices: during a sale an event's object
// grows with its attendees, and each ticket sold (or cancelled) compressed its whole group again,
// a cost that grew with the tickets sold (the soak's profiles, three sessions running: the listing's
// compression from ~7% to ~12% of the server's core in ten minutes). A slice ends at a comma chosen
// by the text just before it (content-defined, as rsync and deduplicating stores cut files), so an
// attendee added at the end changes the last slice, and one gone from the middle or the front (a
// cancel: the oldest tickets are the first attendees) changes its own slice and the next one's
// dictionary, while the slices after them end where they ended and are kept.
import { constants, crc32, deflateRawSync } from 'node:zlib'

/** an item of the array: its id (where groups end) and its JSON, the same object while unchanged */
export type GzipItem = { readonly id: string; readonly json: string }

/** zlib's default: a group of 8–16 kB takes ~0.2–0.4 ms, and only changed groups are compressed again */
const LEVEL = 6
const MARK_EVERY = 2
const GROUP_MIN_BYTES = 8 * 1024
const GROUP_MAX_BYTES = 16 * 1024
/** an item this long is compressed alone, whatever its id, and in slices */
const SOLO_BYTES = 4 * 1024
/** a big item's slices end at a comma chosen by the text before it, once this long… */
const SLICE_MIN_BYTES = 2 * 1024
/** …or here, when no such comma comes */
const SLICE_MAX_BYTES = 8 * 1024
/** about one comma in this many ends a slice (past SLICE_MIN_BYTES) */
const CUT_EVERY = 4
/** the big items whose slices are kept (the most recently compressed) */
const SLICED_ITEMS = 4096
/**
 * The text before a group or slice given to deflate as its dictionary: its last bytes only. Most
 * of what deflate finds there (an event's keys) is in the last event before it; and the shorter it
 * is, the fewer changes before a part make it compressed again (each event's version is at its end)
 * and the less deflate spends reading it (a 32 kB dictionary cost more than a 2 kB slice).
 */
const DICTIONARY_BYTES = 2 * 1024

/** bytes of text compressed since the process began (the unit test counts what a change costs) */
export const compressedBytes = { total: 0 }

const piece = (text: string | Buffer, dictionary?: Buffer) => {
  compressedBytes.total += typeof text === 'string' ? Buffer.byteLength(text) : text.length
  return deflateRawSync(text, {
    level: LEVEL,
    finishFlush: constants.Z_FULL_FLUSH,
    ...(dictionary ? { dictionary } : {}),
  })
}
const OPEN = piece('[')
const COMMA = piece(',')
const CLOSE = piece(']')
const COMMA_TEXT = Buffer.from(',')
const CRC_OPEN = crc32('[')
const CRC_COMMA = crc32(',')
const CRC_CLOSE = crc32(']')
/** magic, deflate, no flags, no time, no extra flags, unknown system */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** the last block: empty */
const LAST = deflateRawSync(Buffer.alloc(0), { level: LEVEL })

/** a group compressed: its deflated text, and its text's CRC-32, length and last bytes */
type Group = {
  items: GzipItem[]
  /** the dictionary it was compressed with (the text before it) */
  dictionary: Buffer | undefined
  deflated: Buffer
  crc: number
  bytes: number
  /** its last bytes and the comma after it: the next group's dictionary */
  tail: Buffer
}

/**
 * a group's compressed text, found by its first item and kept while its items, and the text before
 * it (its dictionary), are the same
 */
const compressed = new WeakMap<GzipItem, Group>()

/** a slice of a big item's text, compressed with the text before it as its dictionary */
type Slice = { text: Buffer; dictionary: Buffer | undefined; deflated: Buffer; crc: number }
/** per item id, the slices it was last compressed in, by their text's CRC-32 */
const sliced = new Map<string, Map<number, Slice>>()

const sameBytes = (a: Buffer | undefined, b: Buffer | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.equals(b))

/** a hash of the bytes just before `at` (where a slice may end) */
const hashBefore = (text: Buffer, at: number) => {
  let hash = 0
  for (let i = Math.max(0, at - 16); i < at; i++) hash = (hash * 31 + (text[i] as number)) | 0
  return hash >>> 0
}

/**
 * Where a big item's slices end: after a comma whose text before it says so (about one in
 * CUT_EVERY), once the slice holds SLICE_MIN_BYTES, or at SLICE_MAX_BYTES when none comes. The
 * ends depend on the text around them, not on where they fall, so an attendee added or gone in the
 * middle of an event changes the slice it is in, and the slices after it end where they ended.
 */
function sliceEnds(text: Buffer): number[] {
  const ends: number[] = []
  for (let start = 0; text.length - start > SLICE_MIN_BYTES; ) {
    const limit = Math.min(start + SLICE_MAX_BYTES, text.length)
    let comma = text.indexOf(0x2c, start + SLICE_MIN_BYTES)
    while (comma !== -1 && comma < limit && hashBefore(text, comma) % CUT_EVERY !== 0)
      comma = text.indexOf(0x2c, comma + 1)
    const end = comma !== -1 && comma < limit ? comma + 1 : start + SLICE_MAX_BYTES
    if (end >= text.length) break
    ends.push(end)
    start = end
  }
  ends.push(text.length)
  return ends
}

/**
 * A big item's text compressed in slices (the top of this file). A slice compressed before is kept
 * when its text, and the text before it that was its dictionary, are the same.
 */
function deflatedSlices(item: GzipItem, text: Buffer, dictionary: Buffer | undefined) {
  const last = sliced.get(item.id)
  const slices = new Map<number, Slice>()
  const out: Buffer[] = []
  let crc = 0
  let start = 0
  for (const end of sliceEnds(text)) {
    const part = text.subarray(start, end)
    const partCrc = crc32(part)
    const before = start === 0 ? dictionary : text.subarray(Math.max(0, start - DICTIONARY_BYTES), start)
    const kept = last?.get(partCrc)
    const slice =
      kept?.text.equals(part) && sameBytes(kept.dictionary, before)
        ? kept
        : // copies: a slice kept through later changes must not keep this whole text alive with it
          {
            text: Buffer.from(part),
            dictionary: before && Buffer.from(before),
            deflated: piece(part, before),
            crc: partCrc,
          }
    slices.set(partCrc, slice)
    out.push(slice.deflated)
    crc = crc32Combine(crc, partCrc, part.length)
    start = end
  }
  // the most recently compressed last in the map's order; the oldest go first
  sliced.delete(item.id)
  sliced.set(item.id, slices)
  if (sliced.size > SLICED_ITEMS) sliced.delete(sliced.keys().next().value as string)
  return { deflated: Buffer.concat(out), crc }
}

/** whether a group may end after this id (a hash of it: the same ids, whatever else changes) */
const marked = (id: string) => {
  let hash = 0
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) | 0
  return (hash >>> 0) % MARK_EVERY === 0
}

const sameItems = (a: readonly GzipItem[], b: readonly GzipItem[]) =>
  a.length === b.length && a.every((item, i) => item === b[i])

/**
 * the group's text, compressed with the end of the group before it (none for the first) as its
 * dictionary
 */
function deflatedGroup(items: GzipItem[], before: Group | null): Group {
  const first = items[0] as GzipItem
  const dictionary = before?.tail
  const kept = compressed.get(first)
  if (kept && sameItems(kept.items, items) && sameBytes(kept.dictionary, dictionary)) return kept
  const text = Buffer.from(items.map((item) => item.json).join(','))
  // what the reader has just inflated: the end of the group before and the comma after it
  const { deflated, crc } =
    items.length === 1 && first.json.length >= SOLO_BYTES
      ? deflatedSlices(first, text, dictionary)
      : { deflated: piece(text, dictionary), crc: crc32(text) }
  const tail = Buffer.concat([text.subarray(-(DICTIONARY_BYTES - 1)), COMMA_TEXT])
  const group = { items, dictionary, deflated, crc, bytes: text.length, tail }
  compressed.set(first, group)
  return group
}

/** the items in the groups they are compressed in, in order (see the top of this file) */
export function groupsOf(items: readonly GzipItem[]): GzipItem[][] {
  const groups: GzipItem[][] = []
  let group: GzipItem[] = []
  let groupBytes = 0
  const close = () => {
    if (group.length > 0) groups.push(group)
    group = []
    groupBytes = 0
  }
  for (const item of items) {
    const solo = item.json.length >= SOLO_BYTES
    if (solo) close()
    group.push(item)
    groupBytes += item.json.length
    if (solo || (groupBytes >= GROUP_MIN_BYTES && marked(item.id)) || groupBytes >= GROUP_MAX_BYTES) close()
  }
  close()
  return groups
}

/**
 * `[a,b,…]` (the items' JSON joined) gzipped. The trailer's CRC-32 of the whole text is put
 * together from the groups' own (crc32Combine), so the whole text is never made.
 */
export function gzipJsonArray(items: readonly GzipItem[]): Buffer {
  const out: Buffer[] = [HEADER, OPEN]
  let crc = CRC_OPEN
  let bytes = 1
  let before: Group | null = null
  for (const group of groupsOf(items)) {
    if (before) {
      out.push(COMMA)
      crc = crc32Combine(crc, CRC_COMMA, 1)
      bytes += 1
    }
    before = deflatedGroup(group, before)
    out.push(before.deflated)
    crc = crc32Combine(crc, before.crc, before.bytes)
    bytes += before.bytes
  }
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc32Combine(crc, CRC_CLOSE, 1), 0)
  trailer.writeUInt32LE((bytes + 1) % 2 ** 32, 4)
  out.push(CLOSE, LAST, trailer)
  return Buffer.concat(out)
}

/** a text compressed apart as one piece of a gzip member (raw deflate ending in a full flush) */
export type DeflatedPiece = { readonly deflated: Buffer; readonly crc: number; readonly bytes: number }

/** a text's piece compressed here and now (a short one: a header, a separator) */
export function deflatedPiece(text: string | Buffer): DeflatedPiece {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text
  return { deflated: piece(bytes), crc: crc32(bytes), bytes: bytes.length }
}

/** deflate's options for a piece compressed elsewhere (on libuv's threads) */
export const pieceOptions = (dictionary?: Buffer) => ({
  level: LEVEL,
  finishFlush: constants.Z_FULL_FLUSH,
  ...(dictionary ? { dictionary } : {}),
})

/** One gzip member of pieces compressed apart, in order: their texts joined, never made whole. */
export function gzipOfPieces(pieces: readonly DeflatedPiece[]): Buffer {
  let crc = 0
  let bytes = 0
  for (const p of pieces) {
    crc = bytes === 0 ? p.crc : crc32Combine(crc, p.crc, p.bytes)
    bytes += p.bytes
  }
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc, 0)
  trailer.writeUInt32LE(bytes % 2 ** 32, 4)
  return Buffer.concat([HEADER, ...pieces.map((p) => p.deflated), LAST, trailer])
}

// CRC-32 of two texts joined, from the CRC-32 of each and the second's length: zlib's
// crc32_combine (Mark Adler's method, zlib 1.2.12), which Node does not expose. CRCs are
// polynomials over GF(2) (reflected, 0xedb88320); appending len2 bytes multiplies the first CRC by
// x^(8·len2) modulo the polynomial, and that power is made from the powers x^(2^k) tabled below.
const POLY = 0xedb88320

/** a·b modulo the CRC polynomial (reflected: the top bit is x^0) */
function multModP(a: number, b: number): number {
  let m = 0x80000000
  let p = 0
  let x = b
  for (;;) {
    if (a & m) {
      p ^= x
      if ((a & (m - 1)) === 0) break
    }
    m >>>= 1
    x = x & 1 ? (x >>> 1) ^ POLY : x >>> 1
  }
  return p >>> 0
}

/** x^(2^k) modulo the polynomial, k = 0…31 */
const X2N: number[] = [0x40000000]
for (let k = 1; k < 32; k++) X2N.push(multModP(X2N[k - 1] as number, X2N[k - 1] as number))

/** x^(n·2^k) modulo the polynomial */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000
  let power = k
  for (let rest = n; rest > 0; rest = Math.floor(rest / 2), power++)
    if (rest % 2 === 1) p = multModP(X2N[power & 31] as number, p)
  return p
}

/** the CRC-32 of A then B, from A's CRC, B's CRC and B's length in bytes */
export const crc32Combine = (crcA: number, crcB: number, bytesB: number) =>
  (multModP(x2nModP(bytesB, 3), crcA) ^ crcB) >>> 0
