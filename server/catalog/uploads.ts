// An event's multipart body (POST /event/create, PUT /event/:id): its text fields, its files staged
// in a media batch (media.ts checks each on the way), the limits the parser is given, and the rules
// for an event's media (how many of each kind, and that only its own files can be kept).
import type { Multipart } from '@fastify/multipart'
import type { Config } from '../config.ts'
import { DomainError, invalid } from '../errors.ts'
import { NUL_REFUSED } from '../http/nul-text.ts'
import type { EventDetails } from './decide.ts'
import type { MediaBatch, MediaKind } from './media.ts'
import type { EventRow } from './views.ts'

type Uploads = Config['uploads']

/** the multipart parser's limits: the most files and fields an event's body may carry */
export const multipartLimits = (uploads: Uploads) => ({
  fileSize: Math.max(uploads.imageMaxBytes, uploads.videoMaxBytes) + 1,
  files: uploads.maxImages + uploads.maxVideos,
  fields: 20,
  fieldSize: 256 * 1024,
  parts: uploads.maxImages + uploads.maxVideos + 20,
})

/** A multipart body's text fields, its files staged in `batch` (at most the limits, per kind). */
export async function readParts(
  parts: AsyncIterable<Multipart>,
  batch: MediaBatch,
  uploads: Pick<Uploads, 'maxImages' | 'maxVideos'>,
): Promise<Record<string, string>> {
  const fields: Record<string, string> = {}
  const counts = { image: 0, video: 0 }
  for await (const part of parts) {
    const field = part.fieldname.replace(/\[\]$/, '')
    if (part.type === 'field') {
      const value = String(part.value)
      // refused at the door as in a JSON body (nul-text.ts), whichever store would keep it
      if (value.includes('\u0000') || field.includes('\u0000'))
        throw invalid(NUL_REFUSED, [{ field: field.replaceAll('\u0000', ''), message: NUL_REFUSED }])
      fields[field] = value
      continue
    }
    const kind = field === 'images' ? 'image' : field === 'videos' ? 'video' : null
    if (!kind) {
      const message = `Files go in "images" or "videos", not "${field.slice(0, 40)}".`
      throw invalid(message, [{ field: field.slice(0, 40), message }])
    }
    if (!part.filename && part.file.readableLength === 0) {
      part.file.resume() // an empty file input
      continue
    }
    const max = kind === 'image' ? uploads.maxImages : uploads.maxVideos
    if (++counts[kind] > max)
      throw invalid(`At most ${max} ${kind}s per event.`, [
        { field, message: `At most ${max} ${kind}s per event.` },
      ])
    await batch.add(kind, part.filename, part.file)
  }
  return fields
}

const TICKET_TYPES_JSON = 'Ticket types must be a JSON list of {type, price, quantity}.'

/** A new event's fields as its contract reads them: ticketTypes is JSON text in a multipart body. */
export function createFieldsOf(fields: Record<string, string>): Record<string, unknown> {
  let ticketTypes: unknown = fields.ticketTypes
  try {
    ticketTypes = JSON.parse(fields.ticketTypes ?? '')
  } catch {
    if (fields.ticketTypes !== undefined) {
      throw invalid(TICKET_TYPES_JSON, [{ field: 'ticketTypes', message: TICKET_TYPES_JSON }])
    }
  }
  return { ...fields, ticketTypes }
}

/** An edit's fields as its contract reads them: ticketTypes and the media kept are JSON text. */
export function editFieldsOf(fields: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = { ...fields }
  for (const key of ['ticketTypes', 'images', 'videos']) {
    const text = fields[key]
    if (text === undefined) continue
    try {
      input[key] = JSON.parse(text)
    } catch {
      const message =
        key === 'ticketTypes'
          ? TICKET_TYPES_JSON
          : `${key === 'images' ? 'Images' : 'Videos'} to keep must be a JSON list of {url}.`
      throw invalid(message, [{ field: key, message }])
    }
  }
  return input
}

/** the multipart parser's complaints about a malformed body carry no status of their own */
export const multipartRefusal = (error: unknown) =>
  error instanceof Error &&
  !(error instanceof DomainError) &&
  /multipart|boundary|part header/i.test(error.message) &&
  !('code' in error)
    ? invalid(`The upload is not valid multipart/form-data (${error.message}).`)
    : error

/** the stored form of a media URL the views gave (absolute against some base), if it is one */
const storedMedia = (url: string, own: Array<{ url: string }>) => {
  const path = url.startsWith('/') ? url : URL.canParse(url) ? new URL(url).pathname : url
  return own.find((m) => m.url === path || m.url === url)
}

/**
 * An edit's media: for each kind, the event's own files the organizer kept (all of them when the
 * edit names none) and the files it added, at most the limit. Kinds neither kept nor added are left
 * out (unchanged).
 */
export function editedMedia(
  kept: Partial<Record<'images' | 'videos', Array<{ url: string }>>>,
  batch: Pick<MediaBatch, 'urls'>,
  row: Pick<EventRow, 'images' | 'videos'>,
  uploads: Pick<Uploads, 'maxImages' | 'maxVideos'>,
): Partial<Pick<EventDetails, 'images' | 'videos'>> {
  const media: Partial<Pick<EventDetails, 'images' | 'videos'>> = {}
  for (const [kind, keptOfKind, current, max] of [
    ['image', kept.images, row.images, uploads.maxImages],
    ['video', kept.videos, row.videos, uploads.maxVideos],
  ] as const satisfies ReadonlyArray<readonly [MediaKind, unknown, unknown, number]>) {
    const added = batch.urls(kind)
    if (!keptOfKind && added.length === 0) continue
    const keep = (keptOfKind ?? current).map((m) => {
      const own = storedMedia(m.url, current)
      if (!own)
        throw invalid(`Only the event's own ${kind}s can be kept.`, [
          { field: `${kind}s`, message: `Only the event's own ${kind}s can be kept.` },
        ])
      return own
    })
    const all = [...keep, ...added]
    if (all.length > max)
      throw invalid(`At most ${max} ${kind}s per event.`, [
        { field: `${kind}s`, message: `At most ${max} ${kind}s per event.` },
      ])
    media[kind === 'image' ? 'images' : 'videos'] = all
  }
  return media
}
