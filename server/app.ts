// The HTTP face of the server: one Fastify instance with its hooks, access rules and every area's
// routes, given the parts the composition root built (root.ts: buildApp). Starts nothing else.
import { randomUUID } from 'node:crypto'
import cors from '@fastify/cors'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify'
import helmet from 'helmet'
import type pg from 'pg'
import type { Logger } from 'pino'
import { accountRoutes } from './accounts/routes.ts'
import { dashboardRoutes } from './analytics/dashboard-routes.ts'
import { attendeeView, figuresView } from './analytics/dashboards.ts'
import { analyticsRoutes } from './analytics/routes.ts'
import { billingRoutes } from './billing/routes.ts'
import { promoRoutes } from './booking/promo-routes.ts'
import { bookingRoutes } from './booking/routes.ts'
import { createMediaStore, serveMedia } from './catalog/media-store.ts'
import { catalogRoutes } from './catalog/routes.ts'
import { checkinRoutes } from './checkin/routes.ts'
import type { Config } from './config.ts'
import { registerAccess, type Tokens } from './http/access.ts'
import { registerDocs } from './http/docs.ts'
import { answerClientError, refuseWithoutHost, registerErrorHandling } from './http/errors.ts'
import { healthRoutes } from './http/health.ts'
import { readJsonBodies } from './http/json-bodies.ts'
import { refuseNulText } from './http/nul-text.ts'
import { headersSetBy, registerSecurityHeaders } from './http/security-headers.ts'
import { siteRoutes } from './http/site.ts'
import { registerSlowBodies } from './http/slow-bodies.ts'
import { trustProxyOf } from './http/trust-proxy.ts'
import { serializerCompiler, validatorCompiler } from './http/valibot.ts'
import { registerWeb } from './http/web.ts'
import { integrationRoutes } from './integrations/routes.ts'
import { webhookRoutes } from './integrations/webhook-routes.ts'
import { registerActivityFeed } from './live/feed.ts'
import { attachLive, type Live } from './live/socket.ts'
import { urlForLog } from './log.ts'
import { toRupees } from './money.ts'
import { paymentRoutes } from './payments/routes.ts'
import type { Platform } from './platform.ts'
import { startAdmitter } from './queue/admitter.ts'
import { typeOpensAt } from './queue/decide.ts'
import { queueRoutes } from './queue/routes.ts'
import { scheduleRoutes } from './schedule/routes.ts'
import { seatingRoutes } from './seating/routes.ts'
import type { Services } from './services.ts'
import { supportRoutes } from './support/routes.ts'
import { waitlistRoutes } from './waitlist/routes.ts'

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform
    services: Services
    live: Live
    tokens: Tokens
  }
}

/**
 * One log line per request, when it is answered: method, url, status and ms (the request id comes
 * with request.log), at error level when the response itself failed. Fastify's "incoming request"
 * and "Route … not found" lines are left out; errors are logged by the error handler (http/errors.ts).
 */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override routeNotFound() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    // made only when it is written (LOG_LEVEL=warn in the benches): a line and its message per request
    if (!error && !(reply.log as unknown as Logger).isLevelEnabled('info')) return
    const ms = Math.round(reply.elapsedTime)
    const url = urlForLog(request.url)
    const line = { method: request.method, url, status: reply.statusCode, ms }
    const message = `${request.method} ${url} ${reply.statusCode} ${ms} ms`
    if (error) reply.log.error({ ...line, err: error }, message)
    else reply.log.info(line, message)
  }
}

export async function createHttpApp(parts: {
  config: Config
  logger: Logger
  platform: Platform
  services: Services
  tokens: Tokens
  /** where media are kept when MEDIA_STORE is database: the store's own pool unless given */
  mediaPool?: pg.Pool | null
}): Promise<FastifyInstance> {
  const { config, logger, platform, services, tokens } = parts
  const media = createMediaStore(config, parts.mediaPool ?? platform.store.postgres?.connection.pool ?? null)
  // Razorpay's checkout is a script that opens a frame and calls its own APIs.
  const razorpay =
    config.payments.provider === 'razorpay'
      ? {
          scripts: ['https://checkout.razorpay.com'],
          frames: ['https://api.razorpay.com', 'https://checkout.razorpay.com'],
          connect: ['https://api.razorpay.com', 'https://lumberjack.razorpay.com'],
        }
      : { scripts: [], frames: [], connect: [] }
  // helmet itself, built once: @fastify/helmet rebuilds it (and re-parses the policy) on every
  // request, which showed up in the flash-sale profile.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval': the door's QR reader is WebAssembly (compiling it, no eval of scripts)
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...razorpay.scripts],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:', ...razorpay.connect],
        frameSrc: ["'self'", ...razorpay.frames],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  })
  // Its headers do not depend on the request here (no nonces, no policy functions), so they are
  // taken from it once and given to each reply as Fastify's own headers: its middleware chain and
  // Node's checks of every raw header on every request were ~8% of the listing's profile (issue 18).
  const securityHeaderSet = headersSetBy(securityHeaders)
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    logController: new OneLinePerRequest(),
    requestIdHeader: 'x-request-id',
    bodyLimit: 1024 * 1024,
    // Longer than any id or token of the API, so a route's own schema refuses an over-long one with
    // the route's words (a reset link: 400 {status:false}), not the router with a bare 414.
    routerOptions: { maxParamLength: 1000 },
    // A backstop only: slow-bodies.ts judges bodies (a time for most, a rate for uploads), so this
    // catches what it never sees, such as a body sent after a malformed request line.
    requestTimeout: 60 * 60_000,
    // Errors raised before routing (a malformed URL) get the same reply shape as the rest.
    frameworkErrors: (error, request, reply) => {
      // its code only: the error's message repeats the address, a reset link's token included
      request.log.info({ code: error.code }, 'malformed request')
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400
      // no onRequest hook ran: its headers are given here
      ;(reply as FastifyReply)
        .headers(securityHeaderSet)
        .header('x-request-id', request.id)
        .code(status)
        .send({ message: 'The request address is malformed.' })
    },
    // What Node's parser could not read (broken framing, headers too large, a request too slow)
    // gets the API's reply shape too, {message}, before the connection is closed.
    clientErrorHandler: answerClientError,
    // Node answers an HTTP/1.1 request without a Host header itself, with a bare 400 and no body;
    // it reaches the app instead, which refuses it in the API's shape (refuseWithoutHost).
    http: { requireHostHeader: false },
    // Whose X-Forwarded-For is believed (TRUST_PROXY): nobody's by default, so a client cannot
    // choose the address its limits are counted under.
    trustProxy: trustProxyOf(config.trustProxy),
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandling(app)
  readJsonBodies(app)
  refuseNulText(app)
  registerSlowBodies(app, config)

  registerSecurityHeaders(app, securityHeaderSet)
  refuseWithoutHost(app)
  // Not strict: an OPTIONS with an Origin but without the other preflight headers is answered
  // like a preflight. A request without an Origin is not a cross-origin one: it gets Vary: Origin
  // and nothing else (an OPTIONS without one is not a preflight: 404). The plugin otherwise sends
  // its allow-credentials and expose-headers on every reply, ~3 µs of the gzipped listing's ~44
  // (issue 18).
  const corsOrigins = config.corsOrigins
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin === undefined ? false : corsOrigins),
    credentials: true,
    strictPreflight: false,
    // every method the API uses, and the headers a client served elsewhere sends (API.md)
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match'],
    // a paged listing's count and next page (GET /event?page=), readable by a client served elsewhere
    exposedHeaders: ['ETag', 'X-Total-Count', 'Link'],
  })

  app.decorate('platform', platform)
  app.decorate('services', services)
  app.decorate('tokens', tokens)
  registerAccess(app, tokens, services.accounts.byId, services.tokenAuth)
  await registerDocs(app)

  const { dashboards } = services
  const reads = {
    checkin: { summary: services.checkinViews.summary },
    seating: services.seating,
    queue: services.queue,
    accounts: services.accounts,
    catalog: services.catalog,
    booking: services.booking,
    dashboards: {
      figures: async (eventId: string, position: number) => {
        const row = await dashboards.figuresOf(eventId)
        return row ? figuresView(row, position) : null
      },
      attendee: async (eventId: string, accountId: string) => {
        const row = await dashboards.attendee(eventId, accountId)
        return row ? attendeeView(row) : null
      },
      totals: async (organizerId: string | null) => {
        const totals = await dashboards.totals(organizerId)
        return { events: totals.events, sold: totals.ticketsSold, revenue: toRupees(totals.revenuePaise) }
      },
    },
  }
  await registerActivityFeed(app, platform, { tokens, reads })
  const { ledger, jobs, gateway } = platform
  const { accounts, catalog: events, booking, bookingCommands: commands, confirm } = services
  await app.register(
    async (api) => {
      await healthRoutes(api, platform)
      await siteRoutes(api, config)
      await accountRoutes(api, {
        platform,
        tokens,
        accounts,
        throttle: services.throttle,
        isAttendeeOf: booking.isAttendeeOf,
        ticketsOf: async (accountId, organizerId) => ({
          ticketIds: (await booking.ticketsOf(accountId)).map((t) => t.id),
          paymentStatus: await booking.bestPaymentStatus(accountId, organizerId),
        }),
      })
      await catalogRoutes(api, {
        platform,
        events,
        commands: services.catalogCommands,
        extras: booking.eventExtras,
        eventOfOrder: async (orderId) => (await booking.byId(orderId))?.eventId,
        media,
        saleTimesOf: async (eventId) => {
          const room = await services.queue.room(eventId)
          return room ? [room.opensAt, ...(room.typeOpens ?? []).map((t) => t.opensAt)] : []
        },
        salesCloseAt: services.checkout.salesCloseAt,
      })
      await seatingRoutes(api, {
        events,
        seating: services.seating,
        commands: services.catalogCommands,
        throttle: services.throttle,
        version: () => ledger.version(),
        holderOf: async (orderId) => {
          const order = await booking.byId(orderId)
          const account = order && (await accounts.byId(order.ownerId ?? order.buyerId))
          return account ? { _id: account.id, username: account.username, email: account.email } : null
        },
      })
      await bookingRoutes(api, {
        platform,
        booking,
        commands,
        checkout: services.checkout,
        events,
        accounts,
        throttle: services.throttle,
        seating: services.seating,
        billing: services.billing,
      })
      await checkinRoutes(api, {
        doorStaff: services.catalogCommands,
        checkin: services.checkin,
        scans: services.checkinScans,
        views: services.checkinViews,
        events,
        booking,
        throttle: services.throttle,
      })
      await promoRoutes(api, {
        promoCodes: services.catalogCommands,
        events,
        booking,
        throttle: services.throttle,
      })
      await waitlistRoutes(api, {
        events,
        entries: services.waitlistQueries,
        commands: services.waitlist,
        maxQuantity: config.booking.maxTicketsPerOrder,
        throttle: services.throttle,
        saleOpensAt: async (eventId, ticketTypeId) => {
          const room = await services.queue.room(eventId)
          return room ? typeOpensAt(room, ticketTypeId) : null
        },
      })
      await billingRoutes(api, { billing: services.billing, commands: services.billingCommands, config })
      await integrationRoutes(api, {
        integrations: services.integrations,
        commands: services.integrationCommands,
        tokenAuth: services.tokenAuth,
        catalog: services.catalog,
        throttle: services.throttle,
      })
      await webhookRoutes(api, {
        config,
        webhooks: services.webhooks,
        endpoints: services.endpointCommands,
        deliveries: services.webhookCommands,
        catalog: services.catalog,
        throttle: services.throttle,
      })
      await queueRoutes(api, {
        events,
        queue: services.queue,
        commands: services.queueCommands,
        salesCloseAt: services.checkout.salesCloseAt,
        throttle: services.throttle,
      })
      await paymentRoutes(api, { gateway, jobs, booking, confirm, localGateway: platform.localGateway })
      await analyticsRoutes(api, {
        sales: services.analytics,
        events,
        booking,
        accounts,
        seating: services.seating,
      })
      await dashboardRoutes(api, { dashboards: services.dashboards, head: () => ledger.settledHead() })
      await scheduleRoutes(api, { platform: { ledger }, events, schedule: services.schedule })
      await supportRoutes(api, {
        platform: { ledger },
        support: services.support,
        accounts,
        throttle: services.throttle,
      })
    },
    { prefix: '/api/v1' },
  )
  await serveMedia(app, media)
  await registerWeb(app, config.webDist)

  // the waiting rooms move on in every process that serves (issue 41)
  const admitter = startAdmitter({
    queue: services.queue,
    events,
    commands: services.queueCommands,
    tickMs: config.booking.queueTickMs,
    ledger,
    warn: (message, err) => app.log.warn({ err }, message),
  })
  app.addHook('onClose', async () => admitter.stop())

  const live = attachLive(app, platform, { tokens, reads })
  app.decorate('live', live)
  return app
}
