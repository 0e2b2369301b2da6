// GET /event/{id}/seatmap's JSON for a big plan, fast: the seats' text is made once per plan version
// (every seat's id, number and place, with a slot where its status goes) and only the seats held or
// sold are read per request (an index of them alone); the finished reply is kept per ledger version
// with its gzip, so readers between two changes share one. A 50,000-seat map was 600 ms a request
// read and written whole (SQLite's 50,000 rows were 420 ms of it).
//
// The gzip is made of pieces compressed apart (http/gzip-groups.ts): a plan's rows in chunks of
// about CHUNK_BYTES of text, each kept compressed while its seats' statuses (and the text before it,
// its dictionary) are the same, and the few bytes around them (the event, each section's name and
// price) compressed per reply. A seat held or sold compresses its chunk and the next one again, not
// the 4 MB of a stadium's map (gzip of the whole was ~57 ms of each reply made again).
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { crc32, deflateRaw } from 'node:zlib'
import type { SeatMapView } from '../../contracts/seating.ts'
import { type DeflatedPiece, deflatedPiece, gzipOfPieces, pieceOptions } from '../http/gzip-groups.ts'
import type { MapSeat, SeatingQueries } from './queries.ts'

const deflated = promisify(deflateRaw)

/** a chunk of rows ends once its text is this long (a 50,000-seat map: ~60 chunks) */
const CHUNK_BYTES = 64 * 1024
/** the end of the chunk before, given to deflate as a chunk's dictionary (what the reader just read) */
const DICTIONARY_BYTES = 16 * 1024

/** a piece with its text (the reply as text, and the next chunk's dictionary) */
type Piece = DeflatedPiece & { text: Buffer }

/** rows of a section one after another: parts [partFrom, partTo) and seats [seatFrom, seatTo) */
type Chunk = {
  partFrom: number
  partTo: number
  seatFrom: number
  seatTo: number
  /** compressed last: for these statuses of its seats, after this text before it */
  kept?: { marks: string; before: Buffer | undefined; piece: Piece }
}

/** one section's seats as text: the pieces, and for each seat (in order) its id and its slot */
type SectionText = {
  name: string
  ticketTypeId: string
  parts: string[]
  ids: string[]
  slots: number[]
  blocked: boolean[]
  chunks: Chunk[]
  /** each seat's chunk */
  chunkOf: Int32Array
}
type Layout = {
  version: number
  sections: SectionText[]
  /** where each seat is: its section and its place in it */
  seats: Map<string, { section: number; k: number }>
}

/** plans' texts kept (an LRU of events shown lately) */
const LAYOUTS = 16
/** finished replies kept, one per event (the latest version asked for) */
const REPLIES = 64
/**
 * The memory each kind may take, about: a stadium's plan (100,000 seats) is some 30 MB as a layout
 * and 10-25 MB as a reply, so the counts alone let a few big plans take gigabytes. The oldest go
 * first past it; the one just made is kept whatever its size.
 */
const LAYOUT_BYTES = 192 * 1024 * 1024
const REPLY_BYTES = 192 * 1024 * 1024

/** a layout's memory, about: its text as JS strings, a Buffer of it kept compressed, each seat's entries */
const layoutBytes = (layout: Layout) =>
  layout.sections.reduce(
    (n, s) => n + s.parts.reduce((m, part) => m + part.length, 0) * 3.2 + s.ids.length * 160,
    0,
  )

type Reply = { key: string; pieces: Piece[]; etag: string; gzip?: Buffer; text?: string }
/** a reply's memory: its pieces' text and deflate, and its gzip and text once asked for */
const replyBytes = (reply: Reply) =>
  reply.pieces.reduce((n, p) => n + p.text.length + p.deflated.length, 0) +
  (reply.gzip?.length ?? 0) +
  (reply.text?.length ?? 0) * 2

/** the oldest entries dropped while there are more than `count` or they take more than `bytes` */
export function keepWithin<V>(
  entries: Map<string, V>,
  count: number,
  bytes: number,
  sizeOf: (v: V) => number,
) {
  let total = 0
  for (const value of entries.values()) total += sizeOf(value)
  while (entries.size > 1 && (entries.size > count || total > bytes)) {
    const [oldest, value] = entries.entries().next().value as [string, V]
    total -= sizeOf(value)
    entries.delete(oldest)
  }
}

function layoutOf(
  version: number,
  sections: ReadonlyArray<{ name: string; ticketTypeId: string }>,
  seats: readonly MapSeat[],
): Layout {
  const texts = new Map<string, SectionText & { rows: number }>()
  for (const s of sections)
    texts.set(s.name, {
      name: s.name,
      ticketTypeId: s.ticketTypeId,
      parts: [],
      ids: [],
      slots: [],
      blocked: [],
      chunks: [],
      chunkOf: new Int32Array(0),
      rows: 0,
    })
  // seats come in the plan's order: a section's rows, and a row's seats, one after another
  let current: (SectionText & { rows: number }) | undefined
  let row: string | undefined
  let first = true
  for (const seat of seats) {
    const text = texts.get(seat.section)
    if (!text) continue
    if (text !== current || seat.row !== row) {
      if (current) current.parts.push(']}')
      text.parts.push(`${text.rows > 0 ? ',' : ''}{"label":${JSON.stringify(seat.row)},"seats":[`)
      text.rows++
      current = text
      row = seat.row
      first = true
    }
    text.parts.push(
      `${first ? '' : ','}{"id":${JSON.stringify(seat.id)},"number":${JSON.stringify(seat.number)},"x":${seat.x},"y":${seat.y},"status":"`,
    )
    first = false
    text.slots.push(text.parts.push('free') - 1)
    text.ids.push(seat.id)
    text.blocked.push(seat.status === 'blocked')
    text.parts.push(`","accessible":${JSON.stringify(seat.accessible)}}`)
  }
  if (current) current.parts.push(']}')
  const where = new Map<string, { section: number; k: number }>()
  const made = [...texts.values()]
  made.forEach((section, s) => {
    section.chunkOf = new Int32Array(section.ids.length)
    for (let k = 0; k < section.ids.length; k++) where.set(section.ids[k] as string, { section: s, k })
    // chunks end where a row does (a row's text starts with `{"label"`)
    let chunk: Chunk = { partFrom: 0, partTo: 0, seatFrom: 0, seatTo: 0 }
    let length = 0
    let seat = 0
    for (let i = 0; i < section.parts.length; i++) {
      const part = section.parts[i] as string
      if (length >= CHUNK_BYTES && part.includes('{"label":')) {
        chunk.partTo = i
        chunk.seatTo = seat
        section.chunks.push(chunk)
        chunk = { partFrom: i, partTo: i, seatFrom: seat, seatTo: seat }
        length = 0
      }
      length += part.length
      if (section.slots[seat] === i) section.chunkOf[seat++] = section.chunks.length
    }
    chunk.partTo = section.parts.length
    chunk.seatTo = seat
    if (chunk.partTo > chunk.partFrom) section.chunks.push(chunk)
  })
  return { version, sections: made, seats: where }
}

export function seatMapTexts(
  seating: Pick<SeatingQueries, 'map' | 'plan' | 'taken'>,
  ledgerVersion: () => Promise<string>,
) {
  const layouts = new Map<string, Layout & { bytes: number }>()
  const replies = new Map<string, Reply>()

  const layout = async (eventId: string, version: number) => {
    const kept = layouts.get(eventId)
    if (kept?.version === version) {
      layouts.delete(eventId)
      layouts.set(eventId, kept)
      return kept
    }
    const map = await seating.map(eventId)
    if (!map) return null
    const laid = layoutOf(map.version, map.sections, map.seats)
    const made = Object.assign(laid, { bytes: layoutBytes(laid) })
    layouts.set(eventId, made)
    keepWithin(layouts, LAYOUTS, LAYOUT_BYTES, (l) => l.bytes)
    return made
  }

  /**
   * A chunk's text with its seats' statuses now, compressed after `before` (the text the reader has
   * just read, the chunk before's; none for a section's first): kept while both are the same.
   */
  const chunkPiece = async (
    section: SectionText,
    chunk: Chunk,
    marks: string,
    status: ReadonlyMap<string, string>,
    before: Buffer | undefined,
  ): Promise<Piece> => {
    const kept = chunk.kept
    if (kept && kept.marks === marks && kept.before === before) return kept.piece
    // the same text after another (the same Buffer: the chunk after it is kept then)
    let text = kept?.marks === marks ? kept.piece.text : undefined
    if (!text) {
      for (let k = chunk.seatFrom; k < chunk.seatTo; k++) {
        const now = status.get(section.ids[k] as string)
        section.parts[section.slots[k] as number] = now ?? (section.blocked[k] ? 'blocked' : 'free')
      }
      text = Buffer.from(section.parts.slice(chunk.partFrom, chunk.partTo).join(''))
    }
    const dictionary = before?.subarray(-DICTIONARY_BYTES)
    const piece = {
      deflated: await deflated(text, pieceOptions(dictionary)),
      crc: crc32(text),
      bytes: text.length,
      text,
    }
    // another reply may have compressed it meanwhile, for statuses newer than these: the later kept
    if (chunk.kept === kept) chunk.kept = { marks, before, piece }
    return piece
  }

  return {
    /**
     * The map's JSON (its length in bytes, its text and its gzip), as of now; null when the event
     * has no map. `header`: each section's name, ticket type and price as the event has them now
     * (they follow its edits). `etag`: the same for the same text (its plan, header and statuses),
     * whatever else the ledger holds by then: a reader who has the map asks whether it changed.
     */
    async reply(
      eventId: string,
      header: (
        sections: ReadonlyArray<{ name: string; ticketTypeId: string }>,
      ) => Array<Omit<SeatMapView['sections'][number], 'rows'>>,
    ): Promise<{ bytes: number; etag: string; text: () => string; gzip: () => Buffer } | null> {
      const [at, plan] = await Promise.all([ledgerVersion(), seating.plan(eventId)])
      if (!plan) return null
      const key = `${at}/${plan.version}`
      const kept = replies.get(eventId)
      let entry = kept?.key === key ? kept : undefined
      if (!entry) {
        const [made, taken] = await Promise.all([layout(eventId, plan.version), seating.taken(eventId)])
        if (!made) return null
        const status = new Map<string, string>()
        // per section and chunk, the statuses of its seats held or sold: what its text depends on
        const marks = made.sections.map((section) => section.chunks.map((): string[] => []))
        for (const seat of taken) {
          const where = made.seats.get(seat.id)
          if (!where) continue
          status.set(seat.id, seat.status)
          const section = made.sections[where.section] as SectionText
          marks[where.section]?.[section.chunkOf[where.k] as number]?.push(`${where.k}${seat.status}`)
        }
        const heads = header(plan.sections)
        // the text around the chunks, in the pieces it falls between them
        const around: string[] = [
          `{"eventId":${JSON.stringify(eventId)},"version":${plan.version},"stage":${JSON.stringify(plan.stage)},"sections":[`,
        ]
        const chunks: Array<Promise<Piece>> = []
        made.sections.forEach((section, i) => {
          const head = JSON.stringify(heads[i])
          around[around.length - 1] += `${i > 0 ? ',' : ''}${head.slice(0, -1)},"rows":[`
          // each chunk after the one before it, whose text is its dictionary
          let before: Promise<Piece> | undefined
          section.chunks.forEach((chunk, c) => {
            const after = before
            const piece = (async () =>
              chunkPiece(
                section,
                chunk,
                (marks[i]?.[c] ?? []).join(','),
                status,
                after ? (await after).text : undefined,
              ))()
            chunks.push(piece)
            around.push('')
            before = piece
          })
          around[around.length - 1] += ']}'
        })
        around[around.length - 1] += ']}'
        const done = await Promise.all(chunks)
        const pieces: Piece[] = []
        around.forEach((text, i) => {
          if (i > 0) pieces.push(done[i - 1] as Piece)
          if (text.length > 0) pieces.push({ ...deflatedPiece(text), text: Buffer.from(text) })
        })
        // the text is its plan's (the version), the text around the chunks and each seat's status
        const tag = createHash('sha256').update(`${plan.version}\n`).update(around.join('\n'))
        for (const section of marks) for (const chunk of section) tag.update(`\n${chunk.join(',')}`)
        entry = { key, pieces, etag: tag.digest('base64url').slice(0, 27) }
        replies.set(eventId, entry)
        keepWithin(replies, REPLIES, REPLY_BYTES, replyBytes)
      }
      const reply = entry
      return {
        bytes: reply.pieces.reduce((n, p) => n + p.bytes, 0),
        etag: reply.etag,
        text: () => (reply.text ??= Buffer.concat(reply.pieces.map((p) => p.text)).toString()),
        gzip: () => (reply.gzip ??= gzipOfPieces(reply.pieces)),
      }
    },
  }
}
