// Calls of the dashboards at scale (contracts/dashboards.ts): a page of event rows with their
// figures and the account's totals, one event's row, and a page of an event's attendees.
import * as v from 'valibot'
import { AttendeesPage, DashboardEventsPage, EventFigures } from '../../../contracts/dashboards.ts'
import { api } from './client.ts'
import type { AttendeesQuery, DashboardQuery } from './keys.ts'

/** the query string of the parameters that are set (an empty search is no search) */
const queryString = (query: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(name, String(value))
  return params.toString()
}

export const fetchDashboardEvents = async (query: DashboardQuery): Promise<DashboardEventsPage> =>
  v.parse(DashboardEventsPage, await api.get<unknown>(`/dashboard/events?${queryString(query)}`))

export const fetchEventFigures = async (eventId: string): Promise<EventFigures> =>
  v.parse(EventFigures, await api.get<unknown>(`/dashboard/events/${encodeURIComponent(eventId)}`))

export const fetchAttendees = async (eventId: string, query: AttendeesQuery): Promise<AttendeesPage> =>
  v.parse(
    AttendeesPage,
    await api.get<unknown>(
      `/dashboard/events/${encodeURIComponent(eventId)}/attendees?${queryString(query)}`,
    ),
  )
