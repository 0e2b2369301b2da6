// Calls of the schedule (API.md /schedule, /notify): sessions of approved events, a new session of
// the organizer's own event, and the notice to its attendees that follows it.
import * as v from 'valibot'
import { MessageReply } from '../../../contracts/common.ts'
import {
  type ScheduleBody,
  SessionList,
  SessionView as SessionShape,
  type SessionView,
} from '../../../contracts/schedule.ts'
import { api } from './client.ts'

export async function fetchSessions(eventId?: string): Promise<SessionView[]> {
  const query = eventId ? `?${new URLSearchParams({ eventId })}` : ''
  return v.parse(SessionList, await api.get<unknown>(`/schedule${query}`))
}

/** POST /schedule: 201 with the session as stored */
export const createSession = async (session: ScheduleBody): Promise<SessionView> =>
  v.parse(SessionShape, await api.post<unknown>('/schedule', session))

export type Notice = { eventId: string; startTime: string; endTime: string }

/** POST /notify: 202, the attendees are told by mail and, when online, live */
export const notifyAttendees = async (notice: Notice): Promise<string> =>
  v.parse(MessageReply, await api.post<unknown>('/notify', notice)).message
