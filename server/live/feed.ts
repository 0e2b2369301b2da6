// The admins' activity feed over a plain WebSocket (GET /api/v1/activity): the client's first
// message carries its token and the last position it saw; the feed sends every later fact in
// order, says when it has caught up, then follows the ledger live. After a disconnect a client
// resumes from its last position and misses nothing and gets nothing twice.
import type { IncomingMessage } from 'node:http'
import websocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import type { ActivityHello, ActivityMessage } from '../../contracts/activity.ts'
import { accountOfToken, type Tokens } from '../http/access.ts'
import { Consumer } from '../ledger/consumer.ts'
import type { Platform } from '../platform.ts'
import { activityShaper, type LiveReads } from './activity.ts'

/** A client that lets this much pile up unread is dropped; it can resume from its position. */
const MAX_BUFFERED = 8 * 1024 * 1024

export async function registerActivityFeed(
  app: FastifyInstance,
  platform: Pick<Platform, 'config' | 'ledger'>,
  parts: { tokens: Tokens; reads: LiveReads },
) {
  const { ledger } = platform
  const { tokens, reads } = parts
  const shape = activityShaper(reads)
  const open = new Set<Consumer>()
  const before = new Set(app.server.listeners('upgrade'))
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } })
  // @fastify/websocket routes every upgrade through Fastify and answers unknown paths with a 404,
  // which would cut Socket.IO's own upgrades (/socket.io/) off; those are left to Socket.IO.
  for (const listener of app.server.listeners('upgrade')) {
    if (before.has(listener)) continue
    const route = listener as (request: IncomingMessage, ...rest: unknown[]) => void
    app.server.removeListener('upgrade', route)
    app.server.on('upgrade', (request: IncomingMessage, ...rest: unknown[]) => {
      if (!request.url?.startsWith('/socket.io/')) route(request, ...rest)
    })
  }
  app.addHook('preClose', async () => {
    await Promise.all([...open].map((c) => c.stop()))
  })

  app.route({
    method: 'GET',
    url: '/api/v1/activity',
    config: { access: 'anyone' },
    schema: { summary: "Admins' activity feed: open it as a WebSocket" },
    // A plain HTTP request is told what this address is for.
    handler: (_request, reply) =>
      reply
        .code(426)
        .header('upgrade', 'websocket')
        .send({ message: 'Connect to this address with a WebSocket.' }),
    wsHandler: (socket, request) => {
      const send = (message: ActivityMessage) => socket.send(JSON.stringify(message))
      const refuse = (code: number, message: string) => {
        send({ kind: 'error', message })
        socket.close(code, message)
      }
      const timer = setTimeout(() => refuse(4401, 'Send your token first.'), 10_000)
      const begin = async (raw: unknown) => {
        clearTimeout(timer)
        let hello: ActivityHello
        try {
          hello = JSON.parse(String(raw))
        } catch {
          return refuse(4400, 'The first message must be JSON: {"token": "...", "from": 0}.')
        }
        let role: string | undefined
        try {
          role =
            request.account?.role ??
            (hello.token ? (await accountOfToken(tokens, reads.accounts.byId, hello.token)).role : undefined)
        } catch {
          return refuse(4401, 'Your session has expired or is no longer valid. Please log in again.')
        }
        // closed while its token was looked up: nothing to follow (and no close event to stop it)
        if (socket.readyState !== socket.OPEN) return
        if (!role) return refuse(4401, 'Please log in to continue.')
        if (role !== 'admin') return refuse(4403, 'You are not allowed to do this.')
        const from =
          Number.isSafeInteger(hello.from) && (hello.from as number) >= 0 ? (hello.from as number) : 0

        let caughtUp = false
        const consumer = new Consumer(
          ledger,
          'activity',
          async (fact) => {
            if (socket.readyState !== socket.OPEN) return
            if (socket.bufferedAmount > MAX_BUFFERED) {
              socket.close(4408, 'Too slow: resume from your last position.')
              return
            }
            const item = await shape(fact)
            if (socket.readyState !== socket.OPEN) return
            send(item)
          },
          { checkpoint: 'memory', startAt: from, pollMs: platform.config.ledgerPollMs, batchSize: 1000 },
        )
        consumer.onIdle = (position) => {
          if (caughtUp || socket.readyState !== socket.OPEN) return
          caughtUp = true
          send({ kind: 'caught-up', position })
        }
        open.add(consumer)
        consumer.start()
        socket.on('close', () => {
          open.delete(consumer)
          void consumer.stop()
        })
      }
      socket.once('message', (raw) => {
        begin(raw).catch((error) => {
          request.log.error({ err: error }, 'the activity feed could not start')
          if (socket.readyState === socket.OPEN) socket.close(1011, 'The feed could not start.')
        })
      })
    },
  })
}
