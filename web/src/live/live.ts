// The live connection (Socket.IO, same origin): authenticated with the session's token, it
// reconnects when the token changes. Listeners get every pushed fact and every (re)connection,
// after which what is on screen is fetched again (live/follow.ts), so that nothing pushed while
// offline is missed. Its status tells a
// connection that dropped (reconnecting: counts on screen may be stale) from one that was never
// needed or is being replaced on purpose (a login). The Socket.IO client is loaded on first use,
// so it stays out of the first page's bundle.
import type { Socket } from 'socket.io-client'
import {
  type FactPush,
  type LiveRefusal,
  liveEvents,
  QUEUE_MESSAGE,
  QUEUE_STATS_MESSAGE,
  SEATS_MESSAGE,
  type SeatsPush,
  TOO_MANY_CONNECTIONS,
  TOO_MANY_MESSAGES,
  type WatchAck,
} from '../../../contracts/live.ts'
import type { QueuePush, QueueStatsPush } from '../../../contracts/queue.ts'
import { retryImport } from '../ui/retry-import.ts'
import { queuePushOf, queueStatsPushOf } from './queue-pushes.ts'
import { seatChangesOf } from './seat-changes.ts'

/**
 * idle: no connection (none needed yet, or being opened or replaced on purpose); connected;
 * reconnecting: the connection dropped or cannot be made, and Socket.IO is trying again;
 * refused: the server turned this address away for now (too many tabs, too many messages), said
 * why (refusal()), and is asked again when it said to.
 */
export type LiveStatus = 'idle' | 'connected' | 'reconnecting' | 'refused'

/** the server's answer to a room joined (a seat map's room says its map's version: seatMap) */
export type JoinedAck = Extract<WatchAck, { ok: true }>

/** the server's refusals of an address, each tried again after the time the refusal gives */
const addressRefusals = new Set([TOO_MANY_CONNECTIONS, TOO_MANY_MESSAGES])
/** when a refusal gives no time */
const REFUSED_RETRY_MS = 15_000

export type Live = {
  setToken(token: string | null): void
  onFact(listener: (push: FactPush) => void): () => void
  /** hears the seat maps' changes of the rooms `seats-<eventId>` watched (issue 40) */
  onSeats(listener: (changes: SeatsPush) => void): () => void
  /** hears this account's places in waiting rooms (issue 41), on its private room */
  onQueue(listener: (place: QueuePush) => void): () => void
  /** hears the figures of the waiting rooms of this organizer's events (and an admin's) */
  onQueueStats(listener: (stats: QueueStatsPush) => void): () => void
  /** called on every connection, the first one included */
  onConnect(listener: () => void): () => void
  /** called whenever the connection comes up or goes down */
  onStatus(listener: () => void): () => void
  /**
   * asks for a public room ('events', 'event-<id>', 'seats-<id>'); kept across reconnections.
   * `onJoined`: called whenever the server says the room was joined (at first and on every
   * connection), with when (performance.now()); at once when it is joined already: what was read
   * before then may have missed a push (a seat map reads itself again)
   */
  watch(room: string, onJoined?: (at: number, ack: JoinedAck) => void): () => void
  connected(): boolean
  status(): LiveStatus
  /** the server's reason while the status is refused, else null */
  refusal(): string | null
  close(): void
}

export function createLive(url = ''): Live {
  let token: string | null = null
  let socket: Socket | null = null
  let opening: Promise<Socket> | null = null
  const watched = new Map<string, number>()
  /** who wants to know when a room is joined (each connection's watch of it, and the first) */
  const joinListeners = new Map<string, Set<(at: number, ack: JoinedAck) => void>>()
  /** the rooms joined on this connection: when, and the server's answer */
  const joined = new Map<string, { at: number; ack: JoinedAck }>()
  const joinedAck = (room: string) => (ack: WatchAck | undefined) => {
    if (!ack?.ok || !watched.has(room)) return
    const at = performance.now()
    joined.set(room, { at, ack })
    for (const listener of joinListeners.get(room) ?? []) listener(at, ack)
  }
  const factListeners = new Set<(push: FactPush) => void>()
  const seatListeners = new Set<(changes: SeatsPush) => void>()
  const heardSeats = (message: unknown) => {
    const changes = seatChangesOf(message)
    if (changes) for (const listener of seatListeners) listener(changes)
  }
  const queueListeners = new Set<(place: QueuePush) => void>()
  const queueStatsListeners = new Set<(stats: QueueStatsPush) => void>()
  const connectListeners = new Set<() => void>()
  const statusListeners = new Set<() => void>()
  let status: LiveStatus = 'idle'
  let refusal: string | null = null
  const setStatus = (next: LiveStatus, reason: string | null = null) => {
    status = next
    refusal = reason
    for (const listener of statusListeners) listener()
  }
  let retrying: ReturnType<typeof setTimeout> | null = null

  const open = () => {
    opening ??= retryImport(() => import('socket.io-client')).then(({ io }) => {
      const created = io(url, {
        path: '/socket.io',
        // a WebSocket at once (one round trip to the first push, where long-polling's handshake and
        // upgrade took four, each a task on a slow phone's page), long-polling where it cannot open
        transports: ['websocket', 'polling'],
        tryAllTransports: true,
        autoConnect: false,
        withCredentials: true,
        auth: (send) => send(token ? { token } : {}),
      })
      created.on('connect', () => {
        for (const room of watched.keys()) created.emit(liveEvents.watch, room, joinedAck(room))
        setStatus('connected')
        for (const listener of connectListeners) listener()
      })
      created.on('disconnect', (reason) => {
        joined.clear()
        // Our own disconnect (a new token) is followed at once by a new connection.
        if (reason === 'io client disconnect') {
          setStatus('idle')
          return
        }
        setStatus('reconnecting')
        // The server closing us (a restart) is not retried by Socket.IO itself; a lost transport is.
        if (reason === 'io server disconnect')
          setTimeout(() => created.connect(), 1000 + Math.random() * 2000)
      })
      created.on(liveEvents.push, (push: FactPush) => {
        // a seat map's changes come as a push named `seats`, like the check-in summary's
        if ((push as { type: string }).type === SEATS_MESSAGE) {
          heardSeats(push.data)
          return
        }
        for (const listener of factListeners) listener(push)
      })
      // ... or as a message of that name of their own
      created.on(SEATS_MESSAGE, (message: unknown) =>
        heardSeats(
          typeof message === 'object' && message !== null && 'data' in message
            ? (message as { data: unknown }).data
            : message,
        ),
      )
      created.on(QUEUE_MESSAGE, (message: unknown) => {
        const place = queuePushOf(message)
        if (place) for (const listener of queueListeners) listener(place)
      })
      created.on(QUEUE_STATS_MESSAGE, (message: unknown) => {
        const stats = queueStatsPushOf(message)
        if (stats) for (const listener of queueStatsListeners) listener(stats)
      })
      created.on('connect_error', (error) => {
        // A refused handshake is not retried by Socket.IO (a transport that failed is).
        if (created.active) {
          setStatus('reconnecting')
          return
        }
        // Turned away for this address (too many tabs, or too many messages from them): said why,
        // and asked again once the server said it may be, a little spread so that the address's
        // tabs do not all come back at the same moment.
        if (addressRefusals.has(error.message)) {
          setStatus('refused', error.message)
          const data = (error as Error & { data?: Partial<LiveRefusal> }).data
          const after = typeof data?.retryAfterMs === 'number' ? data.retryAfterMs : REFUSED_RETRY_MS
          if (retrying) clearTimeout(retrying)
          retrying = setTimeout(
            () => {
              retrying = null
              if (!created.connected && !created.active) created.connect()
            },
            after + Math.random() * 2000,
          )
          return
        }
        // Otherwise the token is no longer valid: carry on as a visitor; the session learns that
        // the token is gone through the API.
        token = null
        setTimeout(() => created.connect(), 1000)
      })
      socket = created
      return created
    })
    return opening
  }

  const reconnect = () => {
    void open().then((current) => {
      if (current.connected || current.active) current.disconnect()
      current.connect()
    })
  }

  return {
    setToken(next) {
      // The session also changes when only the user is saved: same token, same connection.
      if (opening && next === token) return
      token = next
      // A visitor who watches nothing needs no connection (nor the client's code) yet.
      if (!opening && !token && watched.size === 0) return
      reconnect()
    },
    onFact(listener) {
      factListeners.add(listener)
      return () => factListeners.delete(listener)
    },
    onSeats(listener) {
      seatListeners.add(listener)
      return () => seatListeners.delete(listener)
    },
    onQueue(listener) {
      queueListeners.add(listener)
      return () => queueListeners.delete(listener)
    },
    onQueueStats(listener) {
      queueStatsListeners.add(listener)
      return () => queueStatsListeners.delete(listener)
    },
    onConnect(listener) {
      connectListeners.add(listener)
      return () => connectListeners.delete(listener)
    },
    onStatus(listener) {
      statusListeners.add(listener)
      return () => statusListeners.delete(listener)
    },
    watch(room, onJoined) {
      const count = (watched.get(room) ?? 0) + 1
      watched.set(room, count)
      const listener = onJoined ? (at: number, ack: JoinedAck) => onJoined(at, ack) : null
      if (listener) joinListeners.set(room, (joinListeners.get(room) ?? new Set()).add(listener))
      if (!opening) reconnect()
      else if (count === 1 && socket?.connected) socket.emit(liveEvents.watch, room, joinedAck(room))
      // another screen's watch joined it already: this one is told so too, as the first was (what
      // has changed since came to the room)
      const since = joined.get(room)
      if (listener && since !== undefined)
        queueMicrotask(() => {
          if (joinListeners.get(room)?.has(listener) && joined.get(room) === since)
            listener(since.at, since.ack)
        })
      return () => {
        if (listener) joinListeners.get(room)?.delete(listener)
        const left = (watched.get(room) ?? 1) - 1
        if (left > 0) {
          watched.set(room, left)
          return
        }
        watched.delete(room)
        joined.delete(room)
        if (socket?.connected) socket.emit(liveEvents.unwatch, room)
      }
    },
    connected: () => socket?.connected ?? false,
    status: () => status,
    refusal: () => refusal,
    close: () => socket?.disconnect(),
  }
}
