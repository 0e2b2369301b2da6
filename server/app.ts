// buildApp(config): the whole server as one Fastify instance; tests use it with inject().
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
import pino, { type Logger } from 'pino'
import pretty from 'pino-pretty'
import { startWorkers } from '../workers/processors.ts'
import { accountQueries } from './accounts/queries.ts'
import { accountRoutes } from './accounts/routes.ts'
import { ensureAdmin } from './accounts/seed-admin.ts'
import { analyticsRoutes } from './analytics/routes.ts'
import { bookingQueries } from './booking/queries.ts'
import { bookingRoutes } from './booking/routes.ts'
import { serveMedia } from './catalog/media.ts'
import { catalogRoutes } from './catalog/routes.ts'
import type { Config } from './config.ts'
import { createTokens, registerAccess, type Tokens } from './http/access.ts'
import { registerDocs } from './http/docs.ts'
import { registerErrorHandling } from './http/errors.ts'
import { healthRoutes } from './http/health.ts'
import { siteRoutes } from './http/site.ts'
import { registerSlowBodies } from './http/slow-bodies.ts'
import { trustProxyOf } from './http/trust-proxy.ts'
import { serializerCompiler, validatorCompiler } from './http/valibot.ts'
import { registerWeb } from './http/web.ts'
import { createDispatch, enqueueOwedJobs } from './jobs/dispatch.ts'
import { registerActivityFeed } from './live/feed.ts'
import { attachLive, type Live } from './live/socket.ts'
import { paymentRoutes } from './payments/routes.ts'
import { createPlatform, type Platform } from './platform.ts'
import { scheduleRoutes } from './schedule/routes.ts'
import { supportRoutes } from './support/routes.ts'

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform
    live: Live
    tokens: Tokens
  }
}

/**
 * JSON lines, one object each (production, tests, anything piped); readable lines (pino-pretty,
 * written synchronously so nothing is lost on exit) in development on a terminal or with
 * LOG_FORMAT=pretty.
 */
export function createLogger(config: Config): Logger {
  const options = { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] }
  const readable =
    config.logFormat === 'pretty' ||
    (config.logFormat === 'auto' && config.env === 'development' && process.stdout.isTTY === true)
  if (!readable) return pino(options)
  return pino(
    options,
    pretty({
      sync: true,
      colorize: process.stdout.isTTY === true,
      // a request's line already says method, url, status and ms; its id goes after the message
      ignore: 'pid,hostname,reqId,method,url,status,ms',
      messageFormat: '{msg}{if reqId} ({reqId}){end}',
      translateTime: 'SYS:HH:MM:ss.l',
    }),
  )
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
    const ms = Math.round(reply.elapsedTime)
    const line = { method: request.method, url: request.url, status: reply.statusCode, ms }
    const message = `${request.method} ${request.url} ${reply.statusCode} ${ms} ms`
    if (error) reply.log.error({ ...line, err: error }, message)
    else reply.log.info(line, message)
  }
}

export async function buildApp(
  config: Config,
  logger: Logger = createLogger(config),
): Promise<FastifyInstance> {
  const platform = await createPlatform(config, logger)
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    logController: new OneLinePerRequest(),
    requestIdHeader: 'x-request-id',
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    // A backstop only: slow-bodies.ts judges bodies (a time for most, a rate for uploads), so this
    // catches what it never sees, such as a body sent after a malformed request line.
    requestTimeout: 60 * 60_000,
    // Errors raised before routing (a malformed URL) get the same reply shape as the rest.
    frameworkErrors: (error, request, reply) => {
      request.log.info({ err: error }, 'malformed request')
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400
      ;(reply as FastifyReply).code(status).send({ message: 'The request address is malformed.' })
    },
    // Whose X-Forwarded-For is believed (TRUST_PROXY): nobody's by default, so a client cannot
    // choose the address its limits are counted under.
    trustProxy: trustProxyOf(config.trustProxy),
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandling(app)
  registerSlowBodies(app, config)
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })

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
        scriptSrc: ["'self'", ...razorpay.scripts],
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
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined))
  })
  // Not strict: an OPTIONS without the preflight headers is answered like any other request.
  await app.register(cors, {
    origin: config.corsOrigins,
    credentials: true,
    strictPreflight: false,
    // every method the API uses, and the headers a client served elsewhere sends (API.md)
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match'],
  })

  const tokens = createTokens(config)
  app.decorate('platform', platform)
  app.decorate('tokens', tokens)
  registerAccess(app, tokens, accountQueries(platform.ledger.db))
  await registerDocs(app)

  await registerActivityFeed(app, platform, tokens)
  const booking = bookingQueries(platform.ledger.db)
  await app.register(
    async (api) => {
      await healthRoutes(api, platform)
      await siteRoutes(api, config)
      await accountRoutes(api, {
        platform,
        tokens,
        isAttendeeOf: booking.isAttendeeOf,
        ticketsOf: (accountId, organizerId) => ({
          ticketIds: booking.ticketsOf(accountId).map((t) => t.id),
          paymentStatus: booking.bestPaymentStatus(accountId, organizerId),
        }),
      })
      await catalogRoutes(api, { platform, extras: booking.eventExtras })
      await bookingRoutes(api, { platform })
      await paymentRoutes(api, { platform })
      await analyticsRoutes(api, { platform })
      await scheduleRoutes(api, { platform })
      await supportRoutes(api, { platform })
    },
    { prefix: '/api/v1' },
  )
  await serveMedia(app, config.uploadsDir)
  await registerWeb(app, config.webDist)

  const live = attachLive(app, platform, tokens)
  app.decorate('live', live)
  const dispatch = createDispatch(platform)
  dispatch.start()
  const stopSweep = config.workers === 'inline' ? startWorkers(platform) : () => {}
  // Closing waits for a repair under way, so it does not enqueue into closed connections.
  let owing: Promise<void> = Promise.resolve()
  const owed = () => {
    owing = owing
      .then(() => enqueueOwedJobs(platform))
      .catch((error) => logger.warn({ err: error }, 'could not enqueue the owed jobs'))
  }
  owed()
  platform.jobs.onReconnect(owed)

  app.addHook('preClose', async () => {
    stopSweep()
    await owing
    await dispatch.stop()
    await live.close()
  })
  app.addHook('onClose', async () => {
    await platform.close()
  })

  if (config.admin) {
    const admin = await ensureAdmin(platform.ledger, config.admin)
    if (admin.created) logger.info(`Admin ${config.admin.email} created`)
    else if (admin.role !== 'admin') {
      logger.warn(
        `ADMIN_EMAIL ${config.admin.email} belongs to an account with role ${admin.role}; left unchanged`,
      )
    }
  }
  return app
}
