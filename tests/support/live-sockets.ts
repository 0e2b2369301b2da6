// Socket.IO clients for the live-channel tests: each opened socket is remembered so a file can
// disconnect them all when it ends.
import { io as connect, type Socket } from 'socket.io-client'
import WebSocket from 'ws'
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

/** A raw Engine.IO connection: its Socket.IO handshake sent when asked, and every packet heard. */
export type RawSocket = { raw: WebSocket; heard: string[]; connect(): void }

/**
 * Raw Engine.IO connections, open (their Engine.IO handshake done) and not yet asking for the
 * socket: `connect()` on each at once sends handshakes that arrive together, as tabs restored
 * at once do. One per URL given.
 */
export async function rawConnections(urls: string[]): Promise<RawSocket[]> {
  return Promise.all(
    urls.map(async (url) => {
      const raw = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`)
      const heard: string[] = []
      raw.on('message', (message) => {
        const text = String(message)
        if (text === '2')
          raw.send('3') // Engine.IO's ping, answered
        else heard.push(text)
      })
      await new Promise((resolve, reject) => {
        raw.once('open', resolve)
        raw.once('error', reject)
      })
      const deadline = Date.now() + 10_000
      while (!heard.some((text) => text.startsWith('0')) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10))
      return { raw, heard, connect: () => raw.send('40') }
    }),
  )
}

/** What became of a raw handshake: let in, or refused with this message; none yet if unanswered. */
export function handshakeOf(socket: RawSocket): { connected: boolean; refused: string | null } {
  const refusal = socket.heard.find((text) => text.startsWith('44'))
  return {
    connected: socket.heard.some((text) => text.startsWith('40')),
    refused: refusal ? (JSON.parse(refusal.slice(2)) as { message: string }).message : null,
  }
}

/** Whether a socket let in was dropped since: a Socket.IO disconnect, or its connection closed. */
export const droppedSince = (socket: RawSocket) =>
  socket.heard.some((text) => text.startsWith('41')) || socket.raw.readyState !== WebSocket.OPEN
