// Calls of the waiting room (issue 41, API.md "Waiting room"): an event's sale time and room (none:
// null), the organizer's save of them, a buyer's place in line (none: null) and joining it, and the
// organizer's figures of the line with pause and resume.
import { type QueryClient, queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import { MessageReply } from '../../../contracts/common.ts'
import {
  type OnSaleBody,
  OnSaleReply,
  OnSaleView,
  QueuePlace,
  QueueStats,
  saleTimeTag,
} from '../../../contracts/queue.ts'
import { ApiError, api } from './client.ts'
import { keys } from './keys.ts'
import { type LiveQueryMeta, onceAnswered } from './query-client.ts'

export type { OnSaleBody, OnSaleView, QueuePlace, QueueStats }

const path = (id: string) => encodeURIComponent(id)

/** an answer younger than this is the page's own, read as it opened: a part mounted since shows it */
const FETCHED_NOW_MS = 2000

/** a 404's answer as null, anything else as it came */
async function orNone<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read()
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

/** the event's sale time and room, or null when it has none */
export const fetchOnSale = (eventId: string): Promise<OnSaleView | null> =>
  orNone(async () => v.parse(OnSaleView, await api.get<unknown>(`/event/${path(eventId)}/onsale`)))

/**
 * Asked for once as a page opens, however many of its parts show it (the booking form's, mounted
 * once the sale has let it, does not ask again), and a 404 is "none", never retried. The live
 * connection's first connect, a moment later, keeps it (api/query-client.ts): the event's room, once
 * joined, says whether it changed meanwhile (recheckOnSale), and each save after is pushed there
 * (live/follow.ts); a buyer in line reads it again when the sale opens, a reconnection and the page
 * opened again read it again.
 */
export const onSaleQuery = (eventId: string) =>
  queryOptions({
    queryKey: keys.onSale(eventId),
    queryFn: () => fetchOnSale(eventId),
    refetchOnMount: (cached) => Date.now() - cached.state.dataUpdatedAt > FETCHED_NOW_MS,
    meta: { keptAtFirstConnect: () => true } satisfies LiveQueryMeta,
  })

/**
 * Once the event's room is joined: the sale time read before the join (the page's own read, kept at
 * the first connect) is read again when the join's answer says it is not what it was then
 * (`saleTimeNow`, WatchAck.saleTime: a save made between the read and the join was pushed to nobody
 * on this page); an answer still on its way is compared once it has come. Answers what stops the wait.
 */
export function recheckOnSale(
  client: QueryClient,
  eventId: string,
  saleTimeNow: string | null | undefined,
): () => void {
  if (saleTimeNow === undefined) return () => {}
  const key = keys.onSale(eventId)
  // once: an answer read again after the join is current (a save since is pushed)
  return onceAnswered<OnSaleView | null>(client, key, (state) => {
    if (state.status === 'error' || saleTimeTag(state.data ?? null) !== saleTimeNow)
      void client.invalidateQueries({ queryKey: key })
  })
}

export const saveOnSale = async (eventId: string, body: OnSaleBody) =>
  v.parse(OnSaleReply, await api.put<unknown>(`/event/${path(eventId)}/onsale`, body))

/** the caller's place in the event's line, or null when not in it */
export const fetchMyPlace = (eventId: string): Promise<QueuePlace | null> =>
  orNone(async () => v.parse(QueuePlace, await api.get<unknown>(`/event/${path(eventId)}/queue/me`)))

/**
 * A place's every change is pushed (live/follow.ts), so one read before the live connection is
 * read again at its first connect; "not in line" (a 404) is kept: only the buyer's own join puts
 * them in it, and a join answers the place, the same one again if they joined elsewhere.
 */
export const myPlaceQuery = (eventId: string) =>
  queryOptions({
    queryKey: keys.queuePlace(eventId),
    queryFn: () => fetchMyPlace(eventId),
    meta: { keptAtFirstConnect: (place) => place === null } satisfies LiveQueryMeta,
  })

/** joins the line (a repeat answers the place already held) */
export const joinQueue = async (eventId: string): Promise<QueuePlace> =>
  v.parse(QueuePlace, await api.post<unknown>(`/event/${path(eventId)}/queue`))

export const fetchQueueStats = async (eventId: string): Promise<QueueStats> =>
  v.parse(QueueStats, await api.get<unknown>(`/event/${path(eventId)}/queue`))

export const queueStatsQuery = (eventId: string) =>
  queryOptions({ queryKey: keys.queueStats(eventId), queryFn: () => fetchQueueStats(eventId) })

export const pauseQueue = async (eventId: string) =>
  v.parse(MessageReply, await api.post<unknown>(`/event/${path(eventId)}/queue/pause`))

export const resumeQueue = async (eventId: string) =>
  v.parse(MessageReply, await api.post<unknown>(`/event/${path(eventId)}/queue/resume`))
