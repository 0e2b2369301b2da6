// Socket.IO clients for the live-channel tests: each opened socket is remembered so a file can
// disconnect them all when it ends.
import { io as connect, type Socket } from 'socket.io-client'
import type { WatchAck } from '../../contracts/live.ts'

export const sockets: Socket[] = []

export function open(url: string, token?: string, headers: Record<string, string> = {}): Promise<Socket> {
  const socket = connect(url, {
    auth: token ? { token } : {},
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: headers,
  })
  sockets.push(socket)
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
}

export const watch = (socket: Socket, room: string) => socket.emitWithAck('watch', room) as Promise<WatchAck>
