// Calls of the catalogue: the public listing, search and detail, the organizer's new event (sent
// with XMLHttpRequest so the bytes uploaded can be shown), and the admin's review (API.md).
import * as v from 'valibot'
import {
  CancelEventReply,
  EditEventReply,
  EventList,
  EventView as EventShape,
  type EventView,
  type FilterType,
  ReviewReply,
} from '../../../contracts/catalog.ts'
import { API_BASE, ApiError, api, TOKEN_KEY } from './client.ts'

export type { FilterType }

export const fetchEvents = async (): Promise<EventView[]> =>
  v.parse(EventList, await api.get<unknown>('/event'))

/** GET /ticket/getorgid: the signed-in organizer's own events, whatever their status */
export const fetchMyEvents = async (): Promise<EventView[]> =>
  v.parse(EventList, await api.get<unknown>('/ticket/getorgid'))

/** an event with its GST fields (issue 42): the venue's state, whether prices include GST, each type's rate */
const TaxedEventShape = EventShape
export type TaxedEventView = EventView

export const fetchEvent = async (id: string): Promise<TaxedEventView> =>
  v.parse(TaxedEventShape, await api.get<unknown>(`/event/${encodeURIComponent(id)}`))

/** GET /event/filter: by words ('text', sent without a filterType) or by one filter type. */
export async function searchEvents(filterType: FilterType, search: string): Promise<EventView[]> {
  const query = new URLSearchParams(filterType === 'text' ? { search } : { search, filterType })
  return v.parse(EventList, await api.get<unknown>(`/event/filter?${query}`))
}

export type Review = 'Approved' | 'Rejected'

/** PUT /admin/events/{id}/status: the event as reviewed; only if nobody changed it since `version`
 * (another admin's decision at the same moment makes this a 409). */
export const reviewEvent = async (
  id: string,
  status: Review,
  version?: number,
  reason?: string,
): Promise<EventView> =>
  v.parse(
    ReviewReply,
    await api.put<unknown>(
      `/admin/events/${encodeURIComponent(id)}/status`,
      reason?.trim() ? { status, reason: reason.trim() } : { status },
      {
        headers: version === undefined ? {} : { 'If-Match': `"${version}"` },
      },
    ),
  ).event

/** what the organizer's edit sends (PUT /event/{id}, issue 17): the fields changed, and the whole
 * list of ticket types (price in rupees, quantity the capacity) when they changed */
export type EventChanges = Partial<{
  title: string
  description: string
  date: string
  time: string
  location: string
  category: string
  /** the venue's GST state code, '' for none */
  state: string
  pricesIncludeTax: boolean
  ticketTypes: Array<{ type: string; price: number; quantity: number; taxRate: number }>
}>

const EditedEvent = v.object({ ...EditEventReply.entries, event: TaxedEventShape })

export const editEvent = async (id: string, changes: EventChanges): Promise<TaxedEventView> =>
  v.parse(EditedEvent, await api.put<unknown>(`/event/${encodeURIComponent(id)}`, changes)).event

const CancelledEvent = v.object({ ...CancelEventReply.entries, event: TaxedEventShape })

export const cancelEvent = async (id: string, reason: string): Promise<TaxedEventView> =>
  v.parse(CancelledEvent, await api.post<unknown>(`/event/${encodeURIComponent(id)}/cancel`, { reason }))
    .event

/** The new event as multipart: the text fields, ticketTypes as JSON text, files in images/videos. */
export type NewEvent = {
  fields: Record<'title' | 'description' | 'date' | 'time' | 'location' | 'category', string> &
    /** state: the venue's GST state code ('' for none); pricesIncludeTax: 'true' or 'false' */
    Partial<Record<'salesEnd' | 'state' | 'pricesIncludeTax', string>>
  ticketTypes: { type: string; price: number | string; quantity: number | string; taxRate?: number }[]
  images: File[]
  videos: File[]
}

const storedToken = (): string | null => {
  try {
    return localStorage.getItem(TOKEN_KEY)
  } catch {
    return null
  }
}

const replyOf = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** what the form needs of the reply: the new event's id (null if the reply does not say it) */
const CreatedEvent = v.object({ event: v.object({ _id: v.string() }) })

/**
 * POST /event/create. `onProgress` hears the percent (0–100) of the request's bytes sent; fetch
 * cannot report that, hence XMLHttpRequest. Rejects with an ApiError carrying the server's issues.
 */
export function createEvent(
  event: NewEvent,
  onProgress: (percent: number) => void,
): Promise<{ eventId: string | null }> {
  const form = new FormData()
  for (const [name, value] of Object.entries(event.fields)) form.append(name, value)
  form.append('ticketTypes', JSON.stringify(event.ticketTypes))
  for (const image of event.images) form.append('images', image, image.name)
  for (const video of event.videos) form.append('videos', video, video.name)

  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `${API_BASE}/event/create`)
    xhr.withCredentials = true
    xhr.setRequestHeader('Accept', 'application/json')
    const token = storedToken()
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`)
    xhr.upload.addEventListener('progress', (progress) => {
      if (progress.lengthComputable && progress.total > 0) {
        onProgress(Math.min(100, Math.round((progress.loaded / progress.total) * 100)))
      }
    })
    xhr.upload.addEventListener('load', () => onProgress(100))
    xhr.addEventListener('load', () => {
      const body = replyOf(xhr.responseText)
      if (xhr.status >= 200 && xhr.status < 300) {
        const created = v.safeParse(CreatedEvent, body)
        resolve({ eventId: created.success ? created.output.event._id : null })
        return
      }
      const reply = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
      const message = typeof reply.message === 'string' ? reply.message : `Request failed (${xhr.status}).`
      const issues = Array.isArray(reply.issues) ? (reply.issues as { field: string; message: string }[]) : []
      reject(new ApiError(message, xhr.status, body, issues))
    })
    xhr.addEventListener('error', () => reject(new ApiError('The server could not be reached.', 0)))
    xhr.addEventListener('abort', () => reject(new ApiError('The upload was cancelled.', 0)))
    xhr.send(form)
  })
}
