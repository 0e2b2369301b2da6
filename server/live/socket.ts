// Socket.IO on the Fastify server: the handshake's JWT decides the private rooms; a consumer
// tails the ledger and pushes each fact to its audience on this process's sockets.
import { createAdapter } from '@socket.io/redis-adapter'
import type { FastifyInstance } from 'fastify'
import { Server } from 'socket.io'
import { type LivePush, liveEvents, publicRoom, rooms } from '../../contracts/live.ts'
import { accountQueries } from '../accounts/queries.ts'
import { accountOfToken, type Tokens } from '../http/access.ts'
import { Consumer } from '../ledger/consumer.ts'
import type { Platform } from '../platform.ts'
import { createPushes } from './pushes.ts'

export type Live = { io: Server; close(): Promise<void> }

export function attachLive(app: FastifyInstance, platform: Platform, tokens: Tokens): Live {
  const { config, ledger, logger } = platform
  const io = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: config.corsOrigins, credentials: true },
    // Other upgrade paths (the activity feed's WebSocket) belong to Fastify.
    destroyUpgrade: false,
  })
  const pub = platform.redis?.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null })
  const sub = pub?.duplicate()
  if (pub && sub) io.adapter(createAdapter(pub, sub))

  const accounts = accountQueries(ledger.db)
  io.use((socket, next) => {
    const token = socket.handshake.auth?.token
    if (typeof token !== 'string' || token === '') {
      socket.data.account = null
      return next()
    }
    try {
      const account = accountOfToken(tokens, accounts, token)
      socket.data.account = { id: account.id, role: account.role }
      next()
    } catch (error) {
      next(error as Error)
    }
  })

  io.on('connection', (socket) => {
    const account = socket.data.account as { id: string; role: string } | null
    if (account) {
      socket.join(rooms.user(account.id))
      if (account.role === 'organizers') socket.join(rooms.organizer(account.id))
      if (account.role === 'admin') socket.join(rooms.admins)
    }
    socket.on(liveEvents.watch, (requested: unknown, ack?: unknown) => {
      const room = publicRoom(requested)
      if (room) socket.join(room)
      if (typeof ack === 'function') ack(room ? { ok: true, room } : { ok: false, message: 'Unknown room.' })
    })
    socket.on(liveEvents.unwatch, (requested: unknown) => {
      const room = publicRoom(requested)
      if (room) socket.leave(room)
    })
  })

  const pushesOf = createPushes(ledger.db)
  // Each process pushes to its own sockets (io.local): every process tails the same ledger, so
  // nothing needs to cross Redis and nothing is pushed twice. Clients refetch on (re)connect, so
  // the consumer starts at the head instead of replaying what nobody was watching.
  const consumer = new Consumer(
    ledger,
    'live',
    (fact) => {
      // One emit per distinct message to all its rooms: a socket in several of them gets it once.
      const audiences = new Map<Record<string, unknown>, string[]>()
      for (const { room, data } of pushesOf(fact)) audiences.set(data, [...(audiences.get(data) ?? []), room])
      for (const [data, audience] of audiences) {
        const push: LivePush = {
          position: fact.position,
          type: fact.type,
          stream: fact.stream,
          at: fact.at,
          data,
        }
        io.local.to(audience).emit(liveEvents.push, push)
      }
    },
    {
      pollMs: config.ledgerPollMs,
      checkpoint: 'memory',
      onError: (error, fact) => logger.error({ err: error, position: fact.position }, 'live push failed'),
    },
  )
  consumer.start()

  return {
    io,
    async close() {
      await consumer.stop()
      io.local.disconnectSockets(true)
      await new Promise<void>((resolve) => io.close(() => resolve()))
      // QUIT lets the adapter's subscriptions still in flight be answered (a plain disconnect
      // rejects them, unhandled, inside the adapter); a Redis that is away gets a second.
      await Promise.all(
        [pub, sub].map(async (client) => {
          if (!client) return
          let timer: NodeJS.Timeout | undefined
          await Promise.race([
            client.quit().catch(() => {}),
            new Promise((resolve) => {
              timer = setTimeout(resolve, 1000)
            }),
          ])
          clearTimeout(timer)
          client.disconnect()
        }),
      )
    },
  }
}
