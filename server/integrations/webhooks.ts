// Webhooks (issue 43): an organizer's endpoints hear the facts they ask for, in ledger order, at
// least once, signed per the Standard Webhooks specification.
//   - A checkpointed consumer of the ledger (queuer) turns each fact of a kind some endpoint wants
//     into a WebhookQueued fact on that endpoint's stream, decided under the endpoint's lock against
//     its deliveries (a fact read again after a crash or by another process is queued once).
//   - A deliverer in every worker process sends each live endpoint's first pending delivery when it
//     is due, claims it first (Redis, or in memory without it) so two processes never send the same
//     attempt, and records the outcome as a fact; a failure is tried again with backoff until the
//     endpoint has failed for WEBHOOK_GIVE_UP_HOURS, when it is turned off and its owner mailed.
//   - Nothing is sent to a loopback, private, link-local or metadata address unless
//     WEBHOOKS_ALLOW_PRIVATE=on (refused in production), checked on the addresses the name resolves
//     to at delivery time, the connection made to the address checked; redirects are not followed and
//     a response is read up to 64 KB and 10 s.
import { createHmac } from 'node:crypto'
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { BlockList, isIP } from 'node:net'
import { performance } from 'node:perf_hooks'
import type { Redis } from 'ioredis'
import { MAX_WEBHOOKS, TOO_MANY_WEBHOOKS, type WebhookKind } from '../../contracts/webhooks.ts'
import type { BookingQueries } from '../booking/queries.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import type { Config } from '../config.ts'
import type { LedgerPort } from '../db/store.ts'
import { type DecisionTx, decisionLocks, type StepQueries, wait } from '../db/store.ts'
import { conflict } from '../errors.ts'
import { ipv6Groups } from '../http/client-address.ts'
import { streams } from '../ids.ts'
import { Consumer } from '../ledger/consumer.ts'
import type { StoredFact } from '../ledger/ledger.ts'
import { toRupees } from '../money.ts'
import type { IntegrationFact } from './facts.ts'
import type { WebhookQueries } from './queries.ts'
import type { WebhookDeliveryRow, WebhookEndpointRow } from './tables.ts'

/** what the webhooks' decisions read inside their transaction */
export type WebhookReads = { webhooks: Pick<StepQueries<WebhookQueries>, 'delivery' | 'endpoint'> }
type Tx = DecisionTx<WebhookReads>
export type WebhookLedger = Pick<LedgerPort<WebhookReads>, 'transaction' | 'transactionInBatch'>

/** an endpoint's signing secret: derived from the server's secret, never kept (shown once) */
export function webhookSecret(serverSecret: string, endpointId: string): string {
  const key = createHmac('sha256', serverSecret).update('webhook signing').digest()
  return `whsec_${createHmac('sha256', key).update(endpointId).digest('base64')}`
}

/** the Standard Webhooks signature of a delivery: v1,<base64 HMAC-SHA256 of id.timestamp.body> */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

// ── which facts are which kinds ──

/** what a fact tells an endpoint: its kind, the event it is about, and the resource as the API shows it */
export type WebhookNews = {
  kind: WebhookKind
  eventId: string
  organizerId?: string
  data: Record<string, unknown>
}

export type NewsReads = {
  catalog: Pick<CatalogQueries, 'byId'>
  booking: Pick<BookingQueries, 'byId'>
}

/** The news a fact is for webhooks, or null (most facts are none). */
export async function newsOf(fact: StoredFact, reads: NewsReads): Promise<WebhookNews | null> {
  const d = fact.data as Record<string, unknown>
  const orderEvent = async () => (await reads.booking.byId(String(d.orderId)))?.eventId
  switch (fact.type) {
    case 'TicketsIssued':
      return {
        kind: 'order.paid',
        eventId: String(d.eventId),
        data: {
          ticketId: d.orderId,
          eventId: d.eventId,
          ticketTypeId: d.ticketTypeId,
          quantity: d.quantity,
          totalAmount: toRupees(Number(d.amountPaise ?? 0)),
          ownerId: d.ownerId,
        },
      }
    case 'TicketCancelled':
      return {
        kind: 'order.cancelled',
        eventId: String(d.eventId),
        data: { ticketId: d.orderId, eventId: d.eventId, ticketTypeId: d.ticketTypeId, quantity: d.quantity },
      }
    case 'PaymentRefunded': {
      const eventId = await orderEvent()
      return eventId
        ? {
            kind: 'order.refunded',
            eventId,
            data: {
              ticketId: d.orderId,
              eventId,
              amount: toRupees(Number(d.amountPaise ?? 0)),
              refundId: d.refundId,
            },
          }
        : null
    }
    case 'TicketTransferred': {
      const eventId = await orderEvent()
      return eventId
        ? {
            kind: 'ticket.transferred',
            eventId,
            data: { ticketId: d.orderId, eventId, fromId: d.fromId, toId: d.toId },
          }
        : null
    }
    case 'PassAdmitted':
      return {
        kind: 'checkin.admitted',
        eventId: String(d.eventId),
        data: { ticketId: d.orderId, eventId: d.eventId, admission: d.admission, admittedAt: d.admittedAt },
      }
    case 'EventApproved':
    case 'EventRejected':
      return {
        kind: fact.type === 'EventApproved' ? 'event.approved' : 'event.rejected',
        eventId: String(d.eventId),
        organizerId: String(d.organizerId),
        data: { eventId: d.eventId, ...(d.reason ? { reason: d.reason } : {}) },
      }
    case 'WaitlistOffered':
      return {
        kind: 'waitlist.offered',
        eventId: String(d.eventId),
        data: {
          eventId: d.eventId,
          ticketTypeId: d.ticketTypeId,
          accountId: d.accountId,
          quantity: d.quantity,
          offerUntil: d.offerUntil,
        },
      }
    default:
      return null
  }
}

const wants = (endpoint: WebhookEndpointRow, news: WebhookNews) =>
  endpoint.disabledAt === null &&
  endpoint.removedAt === null &&
  endpoint.kinds.includes(news.kind) &&
  (endpoint.eventIds === null || endpoint.eventIds.includes(news.eventId))

// ── decisions ──

function* appendTo(tx: Tx, endpointId: string, facts: IntegrationFact[]) {
  yield* wait(tx.append(streams.webhook(endpointId), 'any', facts, { actor: 'system' }))
}

/** one attempt at a delivery: what the endpoint answered, and when to try again or whether to stop */
export type Attempt = {
  delivery: WebhookDeliveryRow
  outcome: { code: number | null; error: string; ok: boolean }
  next: { nextAt: string | null; disable?: { organizerId: string; url: string; reason: string } }
}

function factsOfAttempt(
  delivery: WebhookDeliveryRow,
  outcome: Attempt['outcome'],
  next: Attempt['next'],
): IntegrationFact[] {
  const attempts = delivery.attempts + 1
  const { endpointId } = delivery
  if (outcome.ok)
    return [
      {
        type: 'WebhookDelivered',
        data: { endpointId, deliveryId: delivery.id, attempts, code: outcome.code ?? 0 },
      },
    ]
  const facts: IntegrationFact[] = [
    {
      type: 'WebhookAttemptFailed',
      data: {
        endpointId,
        deliveryId: delivery.id,
        attempts,
        code: outcome.code,
        error: outcome.error.slice(0, 300),
        nextAt: next.nextAt,
      },
    },
  ]
  if (next.disable) facts.push({ type: 'WebhookEndpointDisabled', data: { endpointId, ...next.disable } })
  return facts
}

export function webhookCommands(ledger: WebhookLedger) {
  const lock = (endpointId: string) => ({ lock: decisionLocks.webhook(endpointId) })
  return {
    /**
     * Facts owed to the endpoints that want them, each once however often it is read: a consumer
     * round's, in its order, in one commit (under each endpoint's lock) shared with the work of
     * the same turn.
     */
    queue: (owed: ReadonlyArray<{ endpointId: string; fact: StoredFact; news: WebhookNews }>) =>
      ledger.transactionInBatch(
        function* (tx) {
          let queued = 0
          for (const { endpointId, fact, news } of owed) {
            const deliveryId = `${endpointId}-${fact.position}`
            if (yield* wait(tx.reads.webhooks.delivery(deliveryId))) continue
            yield* appendTo(tx, endpointId, [
              {
                type: 'WebhookQueued',
                data: {
                  endpointId,
                  deliveryId,
                  position: fact.position,
                  kind: news.kind,
                  at: fact.at,
                  data: news.data,
                },
              },
            ])
            queued++
          }
          return queued
        },
        { lock: [...new Set(owed.map((o) => o.endpointId))].map(decisionLocks.webhook) },
      ),

    /**
     * What became of a round's attempts, each recorded only if its delivery is still at that
     * attempt: one commit for the round (under each endpoint's lock), shared with the work of the
     * same turn, so deliveries during a sale do not each cost a commit of their own.
     */
    record: (attempts: readonly Attempt[]) =>
      ledger.transactionInBatch(
        function* (tx) {
          const recorded: boolean[] = []
          for (const { delivery, outcome, next } of attempts) {
            const now = yield* wait(tx.reads.webhooks.delivery(delivery.id))
            if (now?.status !== 'pending' || now.attempts !== delivery.attempts) {
              recorded.push(false)
              continue
            }
            yield* appendTo(tx, delivery.endpointId, factsOfAttempt(delivery, outcome, next))
            recorded.push(true)
          }
          return recorded
        },
        { lock: [...new Set(attempts.map((a) => a.delivery.endpointId))].map(decisionLocks.webhook) },
      ),

    /** its owner asks a delivery to be sent again (delivered or given up: once more; pending: now) */
    retry: (delivery: WebhookDeliveryRow, by: string) =>
      ledger.transaction(function* (tx) {
        const { endpointId } = delivery
        // an endpoint turned off is on again: what is asked again is sent, and what follows it
        const endpoint = yield* wait(tx.reads.webhooks.endpoint(endpointId))
        const turnOn: IntegrationFact[] = endpoint?.disabledAt
          ? [{ type: 'WebhookEndpointTurnedOn', data: { endpointId, by } }]
          : []
        yield* appendTo(tx, endpointId, [
          ...turnOn,
          { type: 'WebhookRetryAsked', data: { endpointId, deliveryId: delivery.id, by } },
        ])
        return turnOn.length > 0
      }, lock(delivery.endpointId)),
  }
}
export type WebhookCommands = ReturnType<typeof webhookCommands>

// ── where a delivery may go ──

const blocked = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  // unspecified, loopback, and the IPv4-compatible addresses (::a.b.c.d, long deprecated)
  ['::', 96],
  ['::1', 128],
  // IPv4-translated (::ffff:0:a.b.c.d, SIIT): another way to write an IPv4 address
  ['::ffff:0:0:0', 96],
  // the NAT64 prefixes, well-known and local-use: an IPv4 address behind a translator
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  // discard-only, Teredo (an IPv4 address and port inside), documentation
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  // unique local, site-local (deprecated, still routed inside some networks), link-local, multicast
  ['fc00::', 7],
  ['fec0::', 10],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6')

/** whether an address is loopback, private, link-local, metadata or otherwise not the internet's */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return blocked.check(address, 'ipv4')
  if (family !== 6) return true
  // an IPv4 address written as IPv6 (::ffff:a.b.c.d, in any form) is checked as the IPv4 one
  if (blocked.check(address, 'ipv6')) return true
  const g = ipv6Groups(address)
  const ipv4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  // 6to4 (2002:AABB:CCDD::/48) reaches the IPv4 address it carries
  if (g[0] === 0x2002) return blocked.check(ipv4(g[1] ?? 0, g[2] ?? 0), 'ipv4')
  return false
}

export type SendOutcome = { ok: boolean; code: number | null; error: string }

/** POSTs a delivery: no redirects, the answer read up to 64 KB within the time allowed */
export function postDelivery(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<SendOutcome> {
  return new Promise((resolve) => {
    let target: URL
    try {
      target = new URL(url)
    } catch {
      resolve({ ok: false, code: null, error: 'not a URL' })
      return
    }
    const host = target.hostname.replace(/^\[|\]$/g, '')
    if (isIP(host) && isPrivateAddress(host) && !options.allowPrivate) {
      resolve({ ok: false, code: null, error: `refused: ${host} is not a public address` })
      return
    }
    // the name is resolved here, and the connection made to the address checked (no second lookup)
    const lookup = (
      hostname: string,
      lookupOptions: object,
      callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      dnsLookup(hostname, { all: true }, (error, addresses) => {
        if (error) return callback(error, '')
        const refused = addresses.find((a) => isPrivateAddress(a.address))
        if (refused && !options.allowPrivate)
          return callback(
            new Error(`refused: ${hostname} resolves to ${refused.address}, not a public address`),
            '',
          )
        if ((lookupOptions as { all?: boolean }).all) return callback(null, addresses)
        const first = addresses[0] as LookupAddress
        callback(null, first.address, first.family)
      })
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    let settled = false
    const done = (outcome: SendOutcome) => {
      if (settled) return
      settled = true
      resolve(outcome)
    }
    const req = send(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        lookup: lookup as never,
        timeout: options.timeoutMs,
      },
      (res) => {
        const code = res.statusCode ?? 0
        let read = 0
        res.on('data', (chunk: Buffer) => {
          read += chunk.length
          if (read > 64 * 1024) res.destroy()
        })
        const finish = () =>
          done({
            ok: code >= 200 && code < 300,
            code,
            error: code >= 200 && code < 300 ? '' : `answered ${code}`,
          })
        res.on('end', finish)
        res.on('close', finish)
        res.on('error', finish)
      },
    )
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${options.timeoutMs} ms`))
    }, options.timeoutMs)
    timer.unref()
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)))
    req.on('error', (error) => done({ ok: false, code: null, error: error.message }))
    req.on('close', () => clearTimeout(timer))
    req.end(body)
  })
}

// ── the queuer and the deliverer ──

export type WebhookParts = {
  config: Pick<Config, 'webhooks' | 'jwt' | 'queuePrefix' | 'ledgerPollMs'>
  ledger: ConstructorParameters<typeof Consumer>[0]
  redis: Redis | null
  logger: { error(detail: object, message: string): void }
  webhooks: Pick<WebhookQueries, 'endpointsOf' | 'dueHeads' | 'endpoint' | 'pendingOf'>
  commands: WebhookCommands
  reads: NewsReads
  /** mails the owner of an endpoint turned off */
  mailOwner?: (endpoint: WebhookEndpointRow) => Promise<void>
}

/** The consumer that queues each fact for the endpoints that want it. */
export function webhookQueuer(parts: WebhookParts): Consumer {
  const { webhooks, commands, reads, config, logger } = parts
  /** what one fact owes to which endpoints */
  const owedFor = async (fact: StoredFact) => {
    const news = await newsOf(fact, reads)
    if (!news) return []
    const organizerId = news.organizerId ?? (await reads.catalog.byId(news.eventId))?.organizerId
    if (!organizerId) return []
    return (await webhooks.endpointsOf(organizerId))
      .filter((endpoint) => wants(endpoint, news))
      .map((endpoint) => ({ endpointId: endpoint.id, fact, news }))
  }
  return new Consumer(
    parts.ledger,
    'webhooks',
    async (fact) => {
      const owed = await owedFor(fact)
      if (owed.length > 0) await commands.queue(owed)
    },
    {
      pollMs: config.ledgerPollMs,
      // a round's facts queued in one commit: a sale's thousand paid orders are not a thousand
      // commits of their own (with SQLite at FULL, each an fsync holding the whole process)
      handleAll: async (facts) => {
        const owed = []
        for (const fact of facts) owed.push(...(await owedFor(fact)))
        if (owed.length > 0) await commands.queue(owed)
      },
      onError: (error, fact) =>
        logger.error({ err: error, position: fact.position }, 'could not queue webhooks for a fact'),
    },
  )
}

/**
 * Deliveries an endpoint may get in one round, one after another, before their outcomes are
 * recorded together: a round's commit is shared by as many deliveries (during a sale, one commit
 * a delivery, on SQLite at FULL an fsync each, held the whole process). A process stopped
 * mid-round sends the round's deliveries again (at least once).
 */
const PER_ROUND = 20

/** the share of the event loop others' work may take between two rounds before webhooks yield to it */
const BUSY = 0.6

/** the wait before attempt n + 1 after n failures: 30 s, 1, 2, 4 … minutes, at most 6 hours */
export const backoffMs = (attempts: number, baseMs: number) =>
  Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000)

/** The deliverer: every tick, each live endpoint's first pending delivery that is due. */
export function webhookDeliverer(parts: WebhookParts) {
  const { config, redis, webhooks, commands, logger } = parts
  const settings = config.webhooks
  const inFlight = new Set<string>()
  const claim = async (delivery: WebhookDeliveryRow) => {
    const key = `${delivery.id}:${delivery.attempts}`
    if (inFlight.has(delivery.endpointId)) return false
    if (redis) {
      const got = await redis
        .set(
          `${config.queuePrefix}-webhook-claim-${key}`,
          '1',
          'PX',
          settings.timeoutMs * (PER_ROUND + 2),
          'NX',
        )
        .catch(() => 'OK')
      if (got !== 'OK') return false
    }
    inFlight.add(delivery.endpointId)
    return true
  }

  /** one attempt at a claimed delivery; null when its endpoint is off or gone (nothing to record) */
  const attempt = async (delivery: WebhookDeliveryRow) => {
    const endpoint = await webhooks.endpoint(delivery.endpointId)
    if (!endpoint || endpoint.disabledAt || endpoint.removedAt) return null
    const timestamp = Math.floor(Date.now() / 1000)
    const body = JSON.stringify({
      id: delivery.id,
      type: delivery.kind,
      position: delivery.position,
      at: delivery.at,
      data: delivery.payload,
    })
    const secret = webhookSecret(config.jwt.secret, endpoint.id)
    const outcome = await postDelivery(
      endpoint.url,
      {
        'webhook-id': delivery.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignature(secret, delivery.id, timestamp, body),
        'user-agent': 'event-ticketing-webhooks',
      },
      body,
      { allowPrivate: settings.allowPrivate, timeoutMs: settings.timeoutMs },
    )
    const attempts = delivery.attempts + 1
    const failingFor = Date.now() - Date.parse(delivery.queuedAt)
    const giveUp = !outcome.ok && failingFor >= settings.giveUpHours * 3_600_000
    const tried: Attempt = {
      delivery,
      outcome,
      next: {
        nextAt:
          outcome.ok || giveUp
            ? null
            : new Date(Date.now() + backoffMs(attempts, settings.retryBaseMs)).toISOString(),
        ...(giveUp
          ? {
              disable: {
                organizerId: endpoint.organizerId,
                url: endpoint.url,
                reason: `no delivery answered 2xx for ${settings.giveUpHours} hours (last: ${outcome.error || outcome.code})`,
              },
            }
          : {}),
      },
    }
    return { tried, endpoint }
  }

  /**
   * An endpoint's run of a round: its head (claimed), then what follows it while each is answered
   * 2xx, until a tick has gone by: a round waits for every endpoint's run, so a slow endpoint's
   * (each answer just inside the timeout) would hold back every other organizer's deliveries.
   */
  const run = async (head: WebhookDeliveryRow) => {
    const started = Date.now()
    const first = await attempt(head)
    if (!first) return []
    const done = [first]
    if (!first.tried.outcome.ok) return done
    const now = new Date().toISOString()
    for (const delivery of await webhooks.pendingOf(head.endpointId, PER_ROUND)) {
      if (delivery.id === head.id) continue
      // in order: one not due yet (asked again for later) stops the run
      if (delivery.nextAt > now || Date.now() - started > settings.tickMs) break
      const next = await attempt(delivery)
      if (!next) break
      done.push(next)
      if (!next.tried.outcome.ok) break
    }
    return done
  }

  let running = false
  let timer: NodeJS.Timeout | null = null
  /** the event loop's use when the last round ended: what the process did meanwhile is others' work */
  let since = performance.eventLoopUtilization()
  const round = async () => {
    if (running) return
    running = true
    // Webhooks yield to the process's other work: when it kept the event loop busy since the last
    // round (a sale's requests, with the workers inline), this round is one pass (up to PER_ROUND
    // deliveries an endpoint) and the rest waits for the next tick, so deliveries lag a busy sale
    // instead of slowing it; otherwise passes follow each other until nothing is due or a tick has
    // gone by, when the next round looks again.
    const othersBusy = performance.eventLoopUtilization(since).utilization > BUSY
    const started = Date.now()
    let again = false
    try {
      for (let pass = 0, more = true; more; pass++) {
        if (pass > 0 && (othersBusy || Date.now() - started > settings.tickMs)) {
          // a tick's worth done with the process otherwise idle: the next round at once
          again = !othersBusy
          break
        }
        more = false
        const heads = await webhooks.dueHeads(new Date().toISOString(), 50)
        const claimed: WebhookDeliveryRow[] = []
        for (const delivery of heads) if (await claim(delivery)) claimed.push(delivery)
        try {
          // each endpoint's deliveries in order, the next only once the one before was answered
          // 2xx, up to PER_ROUND; every endpoint at once; the round's outcomes recorded together
          const done = (await Promise.all(claimed.map(run))).flat()
          if (done.length === 0) continue
          const recorded = await commands.record(done.map((d) => d.tried))
          for (const [i, { tried, endpoint }] of done.entries()) {
            if (tried.outcome.ok) more = true
            // its owner told once, by the process that recorded it turned off
            else if (tried.next.disable && recorded[i]) await parts.mailOwner?.(endpoint).catch(() => {})
          }
        } finally {
          for (const delivery of claimed) inFlight.delete(delivery.endpointId)
        }
      }
    } catch (error) {
      logger.error({ err: error }, 'the webhook deliverer failed a round')
    } finally {
      running = false
      since = performance.eventLoopUtilization()
    }
    if (again && timer) setImmediate(() => void round())
  }
  return {
    start() {
      timer = setInterval(() => void round(), settings.tickMs)
      timer.unref()
      void round()
    },
    /** a round now (tests; the tick does the same) */
    round,
    stop() {
      if (timer) clearInterval(timer)
      timer = null
    },
  }
}

/** An organizer adds or removes an endpoint: facts of their stream webhooks-<organizerId>. */
export function endpointCommands(ledger: Pick<LedgerPort<unknown>, 'transaction'>) {
  return {
    add: (
      data: Extract<IntegrationFact, { type: 'WebhookEndpointAdded' }>['data'],
      meta: { actor: string; requestId?: string },
    ) =>
      ledger.transaction(
        function* (tx) {
          // at most MAX_WEBHOOKS at once, counted from the organizer's stream under its lock (and
          // appended at its version): two added at once in two processes cannot both pass the count
          const stream = streams.webhooks(data.organizerId)
          const history = yield* wait(tx.readStream(stream))
          const live = new Set<string>()
          for (const fact of history as StoredFact<IntegrationFact>[]) {
            if (fact.type === 'WebhookEndpointAdded') live.add(fact.data.endpointId)
            else if (fact.type === 'WebhookEndpointRemoved') live.delete(fact.data.endpointId)
          }
          if (live.size >= MAX_WEBHOOKS) throw conflict(TOO_MANY_WEBHOOKS)
          yield* wait(tx.append(stream, history.length, [{ type: 'WebhookEndpointAdded', data }], meta))
        },
        { lock: decisionLocks.integrations(data.organizerId) },
      ),
    remove: (endpoint: WebhookEndpointRow, by: string, meta: { actor: string; requestId?: string }) =>
      ledger.transaction(
        function* (tx) {
          const data = { endpointId: endpoint.id, organizerId: endpoint.organizerId, by }
          yield* wait(
            tx.append(
              streams.webhooks(endpoint.organizerId),
              'any',
              [{ type: 'WebhookEndpointRemoved', data }],
              meta,
            ),
          )
        },
        { lock: [decisionLocks.webhook(endpoint.id), decisionLocks.integrations(endpoint.organizerId)] },
      ),
  }
}
export type EndpointCommands = ReturnType<typeof endpointCommands>
