// Calls of the organizer tools (API.md /ticket/analytics, and the CSV export the original lacked):
// what sold per event, and every attendee exported as a file. The attendee lists themselves are
// read a page at a time (dashboards.ts).
import * as v from 'valibot'
import { AnalyticsReply } from '../../../contracts/analytics.ts'
import { TicketList, type TicketView } from '../../../contracts/booking.ts'
import { MessageReply } from '../../../contracts/common.ts'
import { API_BASE, ApiError, api, TOKEN_KEY } from './client.ts'

export const CSV_FILE_NAME = 'attendees_by_events.csv'

/** GET /dashboard/events/{eventId}/attendees/{accountId}/tickets: one attendee's valid tickets */
export const fetchAttendeeTickets = async (eventId: string, accountId: string): Promise<TicketView[]> =>
  v.parse(
    TicketList,
    await api.get<unknown>(
      `/dashboard/events/${encodeURIComponent(eventId)}/attendees/${encodeURIComponent(accountId)}/tickets`,
    ),
  )

/** POST /ticket/{ticketId}/refund: cancels a ticket of the caller's event and refunds it */
export const refundTicket = async (ticketId: string, reason: string): Promise<string> =>
  v.parse(
    MessageReply,
    await api.post<unknown>(`/ticket/${encodeURIComponent(ticketId)}/refund`, reason ? { reason } : {}),
  ).message

export const fetchAnalytics = async (eventId: string): Promise<AnalyticsReply> =>
  v.parse(AnalyticsReply, await api.get<unknown>(`/ticket/analytics/${encodeURIComponent(eventId)}`))

const storedToken = (): string | null => {
  try {
    return localStorage.getItem(TOKEN_KEY)
  } catch {
    return null
  }
}

/**
 * GET /organizers/attendees.csv. The export needs the Bearer header, so a plain link cannot fetch
 * it: the file is fetched and handed over as a blob.
 */
export async function fetchAttendeesCsv(): Promise<Blob> {
  const token = storedToken()
  let response: Response
  try {
    response = await fetch(`${API_BASE}/organizers/attendees.csv`, {
      headers: { Accept: 'text/csv', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      credentials: 'include',
    })
  } catch {
    throw new ApiError('The server could not be reached.', 0)
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null)
    const message =
      typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
        ? (body as { message: string }).message
        : `Request failed (${response.status}).`
    throw new ApiError(message, response.status, body)
  }
  return response.blob()
}
