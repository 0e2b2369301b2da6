// Calls of waiting lists (issue 17): join a sold-out ticket type's list, leave it, and the caller's
// places in line and offers.
import * as v from 'valibot'
import { MessageReply } from '../../../contracts/common.ts'
import { type WaitlistEntryView, WaitlistJoinReply, WaitlistMine } from '../../../contracts/waitlist.ts'
import { api } from './client.ts'

export type { WaitlistEntryView }

const path = (id: string) => encodeURIComponent(id)

export const joinWaitlist = async (eventId: string, ticketType: string, quantity: number) =>
  v.parse(
    WaitlistJoinReply,
    await api.post<unknown>(`/event/${path(eventId)}/waitlist`, { ticketType, quantity }),
  )

export const leaveWaitlist = async (eventId: string, ticketType: string) =>
  v.parse(
    MessageReply,
    await api.delete<unknown>(`/event/${path(eventId)}/waitlist?${new URLSearchParams({ ticketType })}`),
  )

export const fetchMyWaitlist = async (): Promise<WaitlistEntryView[]> =>
  v.parse(WaitlistMine, await api.get<unknown>('/waitlist/mine'))
