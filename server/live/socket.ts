// Socket.IO on the Fastify server: the handshake's JWT decides the private rooms; a consumer
// tails the ledger and pushes each fact to its audience on this process's sockets.
import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import { createAdapter } from '@socket.io/redis-adapter'
import type { FastifyInstance } from 'fastify'
import { Server, type Socket } from 'socket.io'
import type { DashboardTotals } from '../../contracts/dashboards.ts'
import {
  CHECKIN_SUMMARY,
  eventOfRoom,
  type FactPush,
  type LivePush,
  type LiveRefusal,
  liveEvents,
  rooms,
  SEATS_MESSAGE,
  seatsOfRoom,
  TOO_MANY_CONNECTIONS,
  TOO_MANY_MESSAGES,
} from '../../contracts/live.ts'
import { QUEUE_MESSAGE, QUEUE_STATS_MESSAGE, type QueuePush, saleTimeTag } from '../../contracts/queue.ts'
import type { Config } from '../config.ts'
import { heapForConnections } from '../heap.ts'
import { type AccountById, accountOfToken, type Tokens } from '../http/access.ts'
import { limitedAddress } from '../http/client-address.ts'
import { trustProxyOf } from '../http/trust-proxy.ts'
import { Consumer } from '../ledger/consumer.ts'
import type { StoredFact } from '../ledger/ledger.ts'
import type { Platform } from '../platform.ts'
import type { LiveReads } from './activity.ts'
import { connectionCounts } from './connection-counts.ts'
import { messageBudget } from './message-budget.ts'
import {
  availabilityOf,
  createPushes,
  dashboardPushes,
  type LineDue,
  type LinePlaces,
  type Push,
  streamShown,
} from './pushes.ts'
import { type Watcher, watchRules } from './watch.ts'

/** what one socket may send in MESSAGE_WINDOW_MS (watch, unwatch, anything else) */
export const MESSAGES_PER_WINDOW = 100
/** the window of a socket's messages, and of an address's (LIVE_MESSAGES_PER_ADDRESS) */
export const MESSAGE_WINDOW_MS = 10_000
/** how soon a client refused for its address's connections is told to try again */
const CONNECTIONS_RETRY_MS = 15_000

/** a handshake refused: its message, and when to try again, for the client (connect_error) */
const refusal = (message: string, retryAfterMs: number) =>
  Object.assign(new Error(message), { data: { retryAfterMs } satisfies LiveRefusal })

/** the least time between two pushes of a waiting room's places (to one person) or figures */
export const LINE_EVERY_MS = 1000

/** a waiting room's facts: their pushes and the line's gathered ones take turns */
const QUEUE_FACTS = new Set([
  'OnSaleSet',
  'QueueJoined',
  'QueueOpened',
  'QueueAdmitted',
  'QueuePaused',
  'QueueResumed',
  'QueueClosed',
])

/** an admission's end is watched here when it comes within this long (longer ones: a timer's limit) */
const ADMISSION_WATCH_MS = 2 ** 31 - 1
/** after an admission's end, so that the place read then says expired */
const ADMISSION_END_SLACK_MS = 50

export type Live = { io: Server; close(): Promise<void> }

/** Packets a socket's client may leave unread: far above a burst of pushes or of answers to a
 * reconnection's watches, and about 1 MB of memory. */
const unreadLimit = 5000

export function attachLive(
  app: FastifyInstance,
  platform: Pick<Platform, 'config' | 'ledger' | 'logger' | 'redis'>,
  parts: { tokens: Tokens; reads: LiveReads },
): Live {
  const { config, ledger, logger } = platform
  const { tokens, reads } = parts
  const accountById: AccountById = reads.accounts.byId
  const io = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: config.corsOrigins, credentials: true },
    // Other upgrade paths (the activity feed's WebSocket) belong to Fastify.
    destroyUpgrade: false,
  })
  const pub = platform.redis?.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null })
  const sub = pub?.duplicate()
  // The adapter's channels carry QUEUE_PREFIX, like the queues: two deployments (or two test files)
  // on one Redis share nothing. Unscoped, every server on the Redis answered each other's
  // fetchSockets, and one busy server elsewhere made it time out here.
  if (pub && sub) io.adapter(createAdapter(pub, sub, { key: `${config.queuePrefix}:socket.io` }))

  // What each client address may send (message-budget.ts): its handshakes and messages over all its
  // sockets, counted across reconnections. Checked first, before any read: an address past it costs
  // the server nothing more until its window ends.
  const addressOf = clientAddress(config.trustProxy)
  const limited = config.rateLimits.enabled
  const budget = messageBudget(config.live.messagesPerAddress, MESSAGE_WINDOW_MS)
  io.use((socket, next) => {
    const address = addressOf(socket)
    socket.data.address = address
    if (limited && !budget.take(address))
      return next(refusal(TOO_MANY_MESSAGES, budget.retryAfterMs(address)))
    next()
  })

  // Connections per client address, on every process of this Redis (connection-counts.ts), checked
  // and counted at the handshake: handshakes arriving together see each other, and those past the
  // cap are refused with the reason, none let in to be dropped afterwards without a word. Counted
  // until the socket leaves or its connection closes, whichever comes first.
  const counts = connectionCounts(platform.redis, config.queuePrefix)
  const cap = config.live.connectionsPerAddress
  /** each counted socket's listener to its connection's close, until it is given back */
  const counted = new WeakMap<Socket, () => void>()
  const release = (socket: Socket) => {
    const onClose = counted.get(socket)
    if (!onClose) return
    counted.delete(socket)
    socket.conn.off('close', onClose)
    counts.closed(socket.data.address)
  }
  io.use((socket, next) => {
    const address = socket.data.address as string
    counts.reserve(address, cap).then(
      (admitted) => {
        if (!admitted) return next(refusal(TOO_MANY_CONNECTIONS, CONNECTIONS_RETRY_MS))
        // a connection that closed meanwhile would never say so again: its place goes back now
        if (socket.conn.readyState !== 'open') {
          counts.closed(address)
          return next(new Error('The connection closed.'))
        }
        const onClose = () => release(socket)
        counted.set(socket, onClose)
        socket.conn.once('close', onClose)
        next()
      },
      (error) => next(error as Error),
    )
  })

  io.use((socket, next) => {
    const token = socket.handshake.auth?.token
    if (typeof token !== 'string' || token === '') {
      socket.data.account = null
      return next()
    }
    accountOfToken(tokens, accountById, token)
      .then(
        (account) => {
          socket.data.account = { id: account.id, role: account.role }
          // the password the token was issued under: a change of it retires this socket
          socket.data.passwordChangedAt = account.passwordChangedAt
          next()
        },
        (error) => {
          release(socket)
          next(error as Error)
        },
      )
      .catch((error) => logger.error({ err: error }, 'a live handshake failed'))
  })

  const watchesOf = watchRules(reads.catalog, config.live.roomsPerSocket)
  io.on('connection', (socket) => {
    const address = socket.data.address as string
    heapForConnections(io.engine.clientsCount)
    socket.once('disconnect', () => {
      release(socket)
      heapForConnections(io.engine.clientsCount)
    })

    // A client that stops reading would have the server queue every answer and push for it
    // (measured: 200,000 unread acks held 37 MB). Past the limit the connection is dropped without
    // waiting for its queue to drain; a real client reconnects and refetches.
    let unread = 0
    socket.conn.on('packetCreate', () => {
      if (++unread === unreadLimit) setImmediate(() => socket.conn.close(true))
    })
    socket.conn.on('drain', () => {
      unread = 0
    })

    // What a socket may send: a page watches and unwatches a few rooms as it moves (20 at most at
    // once), so MESSAGES_PER_WINDOW in MESSAGE_WINDOW_MS is far above any page's need; and what its
    // address may send, all its sockets together. Past either the socket is dropped, its message
    // unread: each watch costs a read, and a flood of them from a few sockets held the whole server
    // back for seconds (RATE_LIMITS=off lifts both, for load tests).
    if (limited) {
      let windowStart = Date.now()
      let sent = 0
      let dropped = false
      socket.use((_packet, next) => {
        if (dropped) return
        const now = Date.now()
        if (now - windowStart >= MESSAGE_WINDOW_MS) {
          windowStart = now
          sent = 0
        }
        if (++sent <= MESSAGES_PER_WINDOW && budget.take(address)) return next()
        dropped = true
        socket.disconnect(true)
      })
    }

    const account = socket.data.account as Watcher
    if (account) {
      socket.join(rooms.user(account.id))
      if (account.role === 'organizers') socket.join(rooms.organizer(account.id))
      if (account.role === 'admin') socket.join(rooms.admins)
    }
    const watches = watchesOf(account)
    // A watch reads the event; a socket's watches and unwatches are taken in the order they came
    // (a watch then an unwatch of one room leaves it unwatched), each after the one before.
    let turn: Promise<void> = Promise.resolve()
    const inTurn = (work: () => Promise<void>) => {
      turn = turn.then(work).catch((error) => logger.error({ err: error }, 'a live watch failed'))
    }
    socket.on(liveEvents.watch, (requested: unknown, ack?: unknown) =>
      inTurn(async () => {
        const answer = await watches.watch(requested)
        // a socket gone meanwhile joins nothing (the adapter would keep its room)
        if (!socket.connected) return
        if (answer.ok) socket.join(answer.room)
        if (typeof ack !== 'function') return
        if (!answer.ok) return ack(answer)
        // what the room's pushes change, as it is once joined (read after the join, so a change
        // made later is pushed to this socket): a seat map's version, an event's sale time
        const seatsOf = seatsOfRoom(answer.room)
        const eventOf = eventOfRoom(answer.room)
        if (seatsOf !== null && reads.seating) {
          const plan = await reads.seating.plan(seatsOf)
          ack({ ...answer, seatMap: plan?.version ?? null })
        } else if (eventOf !== null && reads.queue) {
          const room = await reads.queue.room(eventOf)
          ack({
            ...answer,
            saleTime: saleTimeTag(room ? { ...room, ticketTypes: room.typeOpens ?? [] } : null),
          })
        } else ack(answer)
      }),
    )
    socket.on(liveEvents.unwatch, (requested: unknown) =>
      inTurn(async () => {
        const room = watches.unwatch(requested)
        if (room) socket.leave(room)
      }),
    )
  })

  // An event's dashboard row is pushed at most every FIGURES_EVERY_MS, as of the latest fact in
  // that time: a sale of a thousand orders a second is five rows a second to a dashboard, not a
  // thousand, each read once. A sale nobody watches on a dashboard costs no dashboard reads.
  const due = new Map<
    string,
    { audience: string[]; fact: StoredFact; people: Set<string>; salesOnly: boolean }
  >()
  let flushing: NodeJS.Timeout | null = null
  /** the flush under way: the next one waits for it, so rows go out in order */
  let flushed: Promise<void> = Promise.resolve()
  // An event's check-in summary likewise: at most one per event and interval, as of the latest
  // scan in it, however many scans a second its door syncs.
  const doorDue = new Map<string, { audience: string[]; fact: StoredFact }>()
  // A ticket type's seats on sale, to its event's room: the first fact after a quiet interval
  // sends them at once; the facts within LIVE_FIGURES_EVERY_MS of a send are gathered, and the
  // count as of the latest goes out when the interval ends. Pushed with every fact, a sale of
  // 2,000 holds a second watched by 200 pages was 400,000 messages a second, and it took the
  // server's core from the sale (a third of its pace; issue 18). The count is the live quantity
  // (API.md): a page owes the latest, not every step to it.
  const seats = new Map<string, { timer: NodeJS.Timeout; latest?: { fact: StoredFact; eventId: string } }>()
  const seatsInterval = config.live.figuresEveryMs
  const listening = (room: string) => (io.sockets.adapter.rooms.get(room)?.size ?? 0) > 0
  /**
   * The position a push is as of: the greatest this process's consumer has been given, taken
   * before the push's reads (which show every fact given by then, each committed). Not the
   * position of the push's own fact: on PostgreSQL the ledger is tailed in (transaction, position)
   * order, and a fact that committed after a higher one comes later at a lower position; its push,
   * read later, is newer, yet a client that keeps the highest position it applied (web/src/live)
   * would drop it. Taken this way, pushes of one thing (a ticket type's seats, an event's row or
   * door, its attendees) go out in the order they were read at non-decreasing positions, and a
   * client applies one at the position it shows (newer or as new). Against an answer's position
   * (a dashboard's, read before its rows, under which every fact has committed: settledHead),
   * a push below it is of facts the answer shows. On SQLite it is each fact's own position, as
   * the ledger is tailed in position order.
   */
  let given = 0
  /** the interval after a send is over: its latest gathered count goes now, or the type is quiet */
  const seatsIntervalOver = (ticketTypeId: string) => {
    const state = seats.get(ticketTypeId)
    if (!state) return
    const { latest } = state
    // nothing gathered, or nobody here watches the event any more: the next fact sends at once
    if (!latest || !listening(rooms.event(latest.eventId))) {
      seats.delete(ticketTypeId)
      return
    }
    const { fact } = latest
    seats.set(ticketTypeId, { timer: setTimeout(() => seatsIntervalOver(ticketTypeId), seatsInterval) })
    flushed = flushed
      .then(async () => {
        const asOf = given
        const data = await availabilityOf(reads, ticketTypeId)
        if (data) sendAsOf(fact, asOf, [rooms.event(data.eventId)], data)
      })
      .catch((error) => logger.error({ err: error }, 'the seats on sale push failed'))
  }
  /** one message to these rooms on this process, of a fact (its type unless given), as of a position (`given`) */
  const sendAsOf = (
    fact: StoredFact,
    position: number,
    to: string[],
    data: FactPush['data'],
    type = fact.type,
  ) => {
    const push: LivePush = {
      position,
      type,
      stream: streamShown(fact.stream, data, to),
      at: fact.at,
      data,
    }
    io.local.to(to).emit(liveEvents.push, push)
  }
  const flushFigures = async () => {
    // taken whole before the reads: what facts make due meanwhile goes with the next flush
    const batch = [...due]
    due.clear()
    const doors = [...doorDue]
    doorDue.clear()
    for (const [eventId, { audience, fact }] of doors) {
      if (!reads.checkin) break
      const asOf = given
      sendAsOf(fact, asOf, audience, await reads.checkin.summary(eventId), CHECKIN_SUMMARY)
    }
    /** each audience's totals, read once per flush (an organizer's own, or the site's for admins) */
    const totalsOf = new Map<string | null, Promise<DashboardTotals> | undefined>()
    const totals = (organizerId: string | null) => {
      if (!totalsOf.has(organizerId)) totalsOf.set(organizerId, reads.dashboards.totals?.(organizerId))
      return totalsOf.get(organizerId)
    }
    for (const [eventId, { audience, fact, people, salesOnly }] of batch) {
      const asOf = given
      const pushes = await dashboardPushes(reads.dashboards, eventId, asOf, people, audience.length > 0)
      const sends: Array<[string[], FactPush['data'] | null]> = [
        [[rooms.attendees(eventId)], pushes.attendees],
      ]
      // the row to each audience room with that room's totals: a page the event is not on then
      // needs no refetch for a sale (FiguresPush)
      const { figures } = pushes
      if (figures)
        for (const room of audience) {
          const organizerId = room === rooms.admins ? null : figures.figures.organizerId
          const known = await totals(organizerId)
          sends.push([[room], known ? { ...figures, totals: known, salesOnly } : figures])
        }
      for (const [to, data] of sends) {
        if (data && to.length > 0) sendAsOf(fact, asOf, to, data)
      }
    }
  }
  const scheduleFlush = () => {
    flushing = null
    flushed = flushed
      .then(flushFigures)
      .catch((error) => logger.error({ err: error }, 'the dashboard pushes failed'))
  }
  // A waiting room's line: a fact's own news goes at once (a joiner's place, an admission); the
  // places of everyone behind an admission and the organizer's figures at most once a room every
  // LINE_EVERY_MS: the first after a quiet while at once, then the latest of the interval when it
  // ends (a room following capacity admits many times a second; each admission moves everyone behind
  // it). The line's pushes and the queue facts' own are read and sent in one turn, one after the
  // other, so a place is always read after what was sent before it: never shown going backwards,
  // nor waiting after its admission.
  const lineState = new Map<string, { timer: NodeJS.Timeout; places: boolean; figures: boolean }>()
  let lineTurn: Promise<unknown> = Promise.resolve()
  const inLineTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = lineTurn.then(work)
    lineTurn = next.catch(() => {})
    return next
  }
  const sendLine = (eventId: string, places: LinePlaces) =>
    inLineTurn(async () => sendQueue(await pushesOf.lineNow(eventId, places))).catch((error) =>
      logger.error({ err: error }, 'the waiting room push failed'),
    )
  const lineIntervalOver = (eventId: string) => {
    const state = lineState.get(eventId)
    if (!state) return
    if (!state.places && !state.figures) {
      lineState.delete(eventId)
      return
    }
    void sendLine(eventId, state.places ? 'waiting' : 'none')
    state.places = false
    state.figures = false
    state.timer = setTimeout(() => lineIntervalOver(eventId), LINE_EVERY_MS)
  }
  const lineDue: LineDue = (eventId, what) => {
    const state = lineState.get(eventId)
    if (state && what !== 'now') {
      if (what === 'places') state.places = true
      state.figures = true
      return
    }
    if (state) {
      state.places = false
      state.figures = false
    } else
      lineState.set(eventId, {
        timer: setTimeout(() => lineIntervalOver(eventId), LINE_EVERY_MS),
        places: false,
        figures: false,
      })
    void sendLine(eventId, what === 'now' ? 'everyone' : what === 'places' ? 'waiting' : 'none')
  }
  // An admission runs out by the clock, with no fact to tell it: each person told here of an
  // admission hears it end (`expired`, as their place then reads) when it does, unless told of
  // another place of that line first.
  const admissionEnds = new Map<string, NodeJS.Timeout>()
  /** one person's place in a line, straight to their sockets here */
  const sendPlace = (room: string, data: QueuePush) => {
    for (const id of io.sockets.adapter.rooms.get(room) ?? [])
      io.sockets.sockets.get(id)?.emit(QUEUE_MESSAGE, data)
    const key = `${room} ${data.eventId}`
    clearTimeout(admissionEnds.get(key))
    admissionEnds.delete(key)
    if (data.state !== 'admitted' || !data.admissionExpiresAt) return
    const left = Date.parse(data.admissionExpiresAt) - Date.now()
    if (!(left < ADMISSION_WATCH_MS)) return
    const timer = setTimeout(() => {
      admissionEnds.delete(key)
      const expired: QueuePush = { eventId: data.eventId, state: 'expired' }
      for (const id of io.sockets.adapter.rooms.get(room) ?? [])
        io.sockets.sockets.get(id)?.emit(QUEUE_MESSAGE, expired)
    }, Math.max(0, left) + ADMISSION_END_SLACK_MS)
    timer.unref()
    admissionEnds.set(key, timer)
  }
  /** a waiting room's messages: bare messages of their own name, each place straight to its sockets */
  const sendQueue = (pushes: Push[]) => {
    for (const { room, data, type } of pushes) {
      if (type === QUEUE_STATS_MESSAGE) io.local.to(room).emit(type, data)
      else if (type === QUEUE_MESSAGE) sendPlace(room, data as QueuePush)
    }
  }

  const pushesOf = createPushes(reads, {
    listening,
    lineDue,
    figuresDue(eventId, audience, fact, people, sales) {
      const before = due.get(eventId)
      const gathered = before?.people ?? new Set<string>()
      for (const person of people) gathered.add(person)
      // the widest audience of the interval: a fact with no row audience does not drop an earlier one's
      const to = audience.length > 0 ? audience : (before?.audience ?? [])
      // sales only while every fact gathered this interval is an order's
      const salesOnly = (before?.salesOnly ?? true) && sales
      due.set(eventId, { audience: to, fact, people: gathered, salesOnly })
      flushing ??= setTimeout(scheduleFlush, config.live.figuresEveryMs)
    },
    availabilityNow(ticketTypeId, eventId, fact) {
      const state = seats.get(ticketTypeId)
      if (state) {
        state.latest = { fact, eventId }
        return false
      }
      seats.set(ticketTypeId, { timer: setTimeout(() => seatsIntervalOver(ticketTypeId), seatsInterval) })
      return true
    },
    checkinDue(eventId, audience, fact) {
      const before = doorDue.get(eventId)
      doorDue.set(eventId, { audience: [...new Set([...(before?.audience ?? []), ...audience])], fact })
      flushing ??= setTimeout(scheduleFlush, config.live.figuresEveryMs)
    },
  })
  // Each process pushes to its own sockets (io.local): every process tails the same ledger, so
  // nothing needs to cross Redis and nothing is pushed twice. Clients refetch on (re)connect, so
  // the consumer starts at the head instead of replaying what nobody was watching.
  const pushFact = async (fact: StoredFact) => {
    given = Math.max(given, fact.position)
    const asOf = given
    // A new password retires the account's tokens: its open sockets go too, on every process
    // (each tails the ledger), and come back only with a new sign-in (the handshake checks).
    // Which sockets is told by the password each was opened under, against the account as it is
    // now (the reset has committed, and its projection with it), not by positions: on
    // PostgreSQL a reset may commit below a position a later handshake already saw as the head.
    if (fact.type === 'PasswordReset') {
      const accountId = (fact.data as { accountId: string }).accountId
      const sockets = await io.local.in(rooms.user(accountId)).fetchSockets()
      if (sockets.length > 0) {
        const now = await accountById(accountId)
        for (const socket of sockets) {
          // a socket opened with the new password's token (the handshake came after it) stays
          if (socket.data.passwordChangedAt !== now?.passwordChangedAt) socket.disconnect(true)
        }
      }
    }
    // One emit per distinct message to all its rooms: a socket in several of them gets it once.
    const audiences = new Map<FactPush['data'], string[]>()
    const types = new Map<FactPush['data'], string>()
    const copies = new Map<FactPush['data'], FactPush['data']>()
    for (const { room, data, type, copyOf } of await pushesOf(fact)) {
      // a seat map's changes (SeatsPush) and a place in a waiting room's line (QueuePush, and the
      // organizer's QueueStatsPush): bare messages of their own name, as they are
      if (type === SEATS_MESSAGE || type === QUEUE_STATS_MESSAGE) {
        io.local.to(room).emit(type, data)
        continue
      }
      // one person's place: straight to the sockets of their room here (a line of 20,000 moves
      // everyone behind each admission: a broadcast's own work for each of them was most of it)
      if (type === QUEUE_MESSAGE) {
        sendPlace(room, data as QueuePush)
        continue
      }
      const factData = data as FactPush['data']
      audiences.set(factData, [...(audiences.get(factData) ?? []), room])
      if (type) types.set(factData, type)
      if (copyOf) copies.set(factData, copyOf)
    }
    for (const [data, audience] of audiences) {
      // a public copy goes to no socket that hears the full message
      const original = copies.get(data)
      const hearingIt = (original && audiences.get(original)) || []
      const push: LivePush = {
        position: asOf,
        type: types.get(data) ?? fact.type,
        stream: streamShown(fact.stream, data, audience),
        at: fact.at,
        data,
      }
      io.local.to(audience).except(hearingIt).emit(liveEvents.push, push)
    }
  }
  const consumer = new Consumer(
    ledger,
    'live',
    // a waiting room's facts in the line's turn (above)
    (fact) => (QUEUE_FACTS.has(fact.type) ? inLineTurn(() => pushFact(fact)) : pushFact(fact)),
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
      await counts.stop()
      budget.stop()
      if (flushing) clearTimeout(flushing)
      for (const { timer } of seats.values()) clearTimeout(timer)
      for (const { timer } of lineState.values()) clearTimeout(timer)
      for (const timer of admissionEnds.values()) clearTimeout(timer)
      await flushed
      await lineTurn
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

/**
 * The address Fastify gives the same client's requests (request.ip): X-Forwarded-For is believed
 * only from the proxies TRUST_PROXY names, as app.ts sets up, so behind a proxy the limit is per
 * visitor, not one for everyone behind it (an IPv6 one by its /64: limitedAddress). The handshake's
 * own TCP connection may be gone when a polling client connects, so the address engine.io kept from
 * it stands in for it.
 */
function clientAddress(trustProxy: Config['trustProxy']) {
  const trust = trustProxyOf(trustProxy)
  return (socket: Socket): string => {
    const { headers, address } = socket.handshake
    const handshake = { headers, socket: { remoteAddress: address } } as unknown as IncomingMessage
    return limitedAddress(proxyAddr(handshake, trust) ?? address)
  }
}
