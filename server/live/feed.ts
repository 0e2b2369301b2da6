// The admins' activity feed over a plain WebSocket (GET /api/v1/activity): the client's first
// message carries its token and the last position it saw; the feed sends every later fact in
// order, says when it has caught up, then follows the ledger live. After a disconnect a client
// resumes from its last position and misses nothing and gets nothing twice. A client that shows
// only the latest facts says how many (`keep`): it gets at most that many of the backlog, then the
// latest of each short interval in one message (ActivityBatch), shaped only when sent.
import type { IncomingMessage } from 'node:http'
import websocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import { ACTIVITY_KEEP_MAX, type ActivityHello, type ActivityMessage } from '../../contracts/activity.ts'
import { accountOfToken, type Tokens } from '../http/access.ts'
import { Consumer } from '../ledger/consumer.ts'
import type { StoredFact } from '../ledger/ledger.ts'
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
        let account: { id: string; role: string; passwordChangedAt: number } | undefined
        try {
          account =
            request.account ??
            (hello.token ? await accountOfToken(tokens, reads.accounts.byId, hello.token) : undefined)
        } catch {
          return refuse(4401, 'Your session has expired or is no longer valid. Please log in again.')
        }
        // closed while its token was looked up: nothing to follow (and no close event to stop it)
        if (socket.readyState !== socket.OPEN) return
        if (!account) return refuse(4401, 'Please log in to continue.')
        if (account.role !== 'admin') return refuse(4403, 'You are not allowed to do this.')
        const admin = account.id
        const openedUnder = account.passwordChangedAt
        /**
         * the admin's password changed since the token this feed was opened with: that token is
         * retired, and so is the feed. Told by the account as it is once the reset is read (its
         * projection committed with it), not by positions: on PostgreSQL a reset may commit below a
         * position already committed when the feed was opened.
         */
        const retired = async (fact: StoredFact) =>
          fact.type === 'PasswordReset' &&
          (fact.data as { accountId?: string }).accountId === admin &&
          (await reads.accounts.byId(admin))?.passwordChangedAt !== openedUnder
        const from =
          Number.isSafeInteger(hello.from) && (hello.from as number) >= 0 ? (hello.from as number) : 0

        const keep =
          Number.isSafeInteger(hello.keep) && (hello.keep as number) >= 1
            ? Math.min(hello.keep as number, ACTIVITY_KEEP_MAX)
            : null
        // only the latest `keep` of the backlog are shown: the rest is not even read
        const startAt = keep ? Math.max(from, (await ledger.head()) - keep) : from
        if (socket.readyState !== socket.OPEN) return

        let caughtUp = false
        const tooSlow = () => {
          if (socket.bufferedAmount <= MAX_BUFFERED) return false
          socket.close(4408, 'Too slow: resume from your last position.')
          return true
        }
        const closeIfRetired = async (fact: StoredFact) => {
          if (!(await retired(fact))) return false
          if (socket.readyState === socket.OPEN)
            refuse(4401, 'Your session has expired or is no longer valid. Please log in again.')
          return true
        }
        const every = async (fact: StoredFact) => {
          if (socket.readyState !== socket.OPEN || tooSlow() || (await closeIfRetired(fact))) return
          const item = await shape(fact)
          if (socket.readyState !== socket.OPEN) return
          send(item)
        }
        const latest = keep
          ? latestOnly(keep, platform.config.live.figuresEveryMs, shape, send, (error) => {
              // a read failed: the client comes back from its last position and misses nothing
              request.log.error({ err: error }, 'the activity feed could not shape a fact')
              if (socket.readyState === socket.OPEN) socket.close(1011, 'The feed could not go on.')
            })
          : null
        const consumer = new Consumer(
          ledger,
          'activity',
          latest
            ? async (fact) => {
                if (socket.readyState !== socket.OPEN || tooSlow() || (await closeIfRetired(fact))) return
                latest.add(fact, caughtUp)
              }
            : every,
          {
            checkpoint: 'memory',
            startAt,
            pollMs: platform.config.ledgerPollMs,
            batchSize: 1000,
          },
        )
        consumer.onIdle = (position) => {
          if (caughtUp || socket.readyState !== socket.OPEN) return
          caughtUp = true
          const sent = latest ? latest.flush() : Promise.resolve()
          void sent.then(() => {
            if (socket.readyState === socket.OPEN) send({ kind: 'caught-up', position })
          })
        }
        open.add(consumer)
        consumer.start()
        socket.on('close', () => {
          latest?.stop()
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

/**
 * The latest `keep` facts of each interval of `everyMs`, shaped and sent in one message when the
 * interval ends (a fact after a quiet interval goes at once); the ones before them are only
 * counted. The backlog (before `live`) waits for flush().
 */
function latestOnly(
  keep: number,
  everyMs: number,
  shape: (fact: StoredFact) => Promise<ActivityMessage & { kind: 'fact' }>,
  send: (message: ActivityMessage) => void,
  fail: (error: unknown) => void,
) {
  let pending: StoredFact[] = []
  let passedOver = 0
  let sentAt = Number.NEGATIVE_INFINITY
  let timer: NodeJS.Timeout | null = null
  let stopped = false
  /** the batch under way: the next waits for it, so batches go out in order */
  let sending: Promise<void> = Promise.resolve()
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer)
    timer = null
    const facts = pending
    const skipped = passedOver
    pending = []
    passedOver = 0
    const last = facts.at(-1)
    if (!last || stopped) return sending
    sentAt = Date.now()
    sending = sending
      .then(async () => {
        const items = []
        for (const fact of facts) items.push(await shape(fact))
        if (!stopped) send({ kind: 'facts', items, passedOver: skipped, position: last.position })
      })
      .catch((error) => {
        stopped = true
        fail(error)
      })
    return sending
  }
  return {
    add(fact: StoredFact, live: boolean) {
      pending.push(fact)
      if (pending.length > keep) {
        pending.shift()
        passedOver++
      }
      if (!live) return
      const wait = sentAt + everyMs - Date.now()
      if (wait <= 0 && !timer) void flush()
      else timer ??= setTimeout(flush, Math.max(0, wait))
    },
    flush,
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
    },
  }
}
