// The live connection (Socket.IO, same origin): authenticated with the session's token, it
// reconnects when the token changes. Listeners get every pushed fact and every (re)connection,
// after which what is on screen is fetched again (live/follow.ts), so that nothing pushed while
// offline is missed. Its status tells a
// connection that dropped (reconnecting: counts on screen may be stale) from one that was never
// needed or is being replaced on purpose (a login). The Socket.IO client is loaded on first use,
// so it stays out of the first page's bundle.
import type { Socket } from 'socket.io-client'
import { type FactPush, liveEvents, TOO_MANY_CONNECTIONS } from '../../../contracts/live.ts'
import { retryImport } from '../ui/retry-import.ts'

/**
 * idle: no connection (none needed yet, or being opened or replaced on purpose); connected;
 * reconnecting: the connection dropped or cannot be made, and Socket.IO is trying again.
 */
export type LiveStatus = 'idle' | 'connected' | 'reconnecting'

export type Live = {
  setToken(token: string | null): void
  onFact(listener: (push: FactPush) => void): () => void
  /** called on every connection, the first one included */
  onConnect(listener: () => void): () => void
  /** called whenever the connection comes up or goes down */
  onStatus(listener: () => void): () => void
  /** asks for a public room ('events', 'event-<id>'); kept across reconnections */
  watch(room: string): () => void
  connected(): boolean
  status(): LiveStatus
  close(): void
}

export function createLive(url = ''): Live {
  let token: string | null = null
  let socket: Socket | null = null
  let opening: Promise<Socket> | null = null
  const watched = new Map<string, number>()
  const factListeners = new Set<(push: FactPush) => void>()
  const connectListeners = new Set<() => void>()
  const statusListeners = new Set<() => void>()
  let status: LiveStatus = 'idle'
  const setStatus = (next: LiveStatus) => {
    status = next
    for (const listener of statusListeners) listener()
  }

  const open = () => {
    opening ??= retryImport(() => import('socket.io-client')).then(({ io }) => {
      const created = io(url, {
        path: '/socket.io',
        autoConnect: false,
        withCredentials: true,
        auth: (send) => send(token ? { token } : {}),
      })
      created.on('connect', () => {
        for (const room of watched.keys()) created.emit(liveEvents.watch, room)
        setStatus('connected')
        for (const listener of connectListeners) listener()
      })
      created.on('disconnect', (reason) => {
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
        for (const listener of factListeners) listener(push)
      })
      created.on('connect_error', (error) => {
        // A refused handshake is not retried by Socket.IO. Too many tabs from this address: try
        // again later as who we are. Otherwise the token is no longer valid: carry on as a
        // visitor; the session learns that the token is gone through the API.
        if (created.active) {
          setStatus('reconnecting')
          return
        }
        if (error.message === TOO_MANY_CONNECTIONS) {
          setStatus('reconnecting')
          setTimeout(() => created.connect(), 15_000)
          return
        }
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
    onConnect(listener) {
      connectListeners.add(listener)
      return () => connectListeners.delete(listener)
    },
    onStatus(listener) {
      statusListeners.add(listener)
      return () => statusListeners.delete(listener)
    },
    watch(room) {
      const count = (watched.get(room) ?? 0) + 1
      watched.set(room, count)
      if (!opening) reconnect()
      else if (count === 1 && socket?.connected) socket.emit(liveEvents.watch, room)
      return () => {
        const left = (watched.get(room) ?? 1) - 1
        if (left > 0) {
          watched.set(room, left)
          return
        }
        watched.delete(room)
        if (socket?.connected) socket.emit(liveEvents.unwatch, room)
      }
    },
    connected: () => socket?.connected ?? false,
    status: () => status,
    close: () => socket?.disconnect(),
  }
}
