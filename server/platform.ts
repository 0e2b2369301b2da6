// The ports every process shares: database and ledger, Redis (when it answers), jobs, mail and the
// payment gateway. Knows no area: the composition root (root.ts) hands it the projections.
import { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { type Config, withoutPassword } from './config.ts'
import { createBullJobs } from './jobs/bullmq.ts'
import { createInProcessJobs } from './jobs/in-process.ts'
import type { Jobs } from './jobs/port.ts'
import { createMailer, type Mailer } from './mail/mailer.ts'
import { createGateway } from './payments/gateway.ts'
import type { LocalGateway } from './payments/local-gateway.ts'
import type { PaymentGateway } from './payments/port.ts'
import type { AppLedger, Store } from './stores.ts'

export type Platform = {
  config: Config
  logger: Logger
  /** the database the settings chose (SQLite or PostgreSQL), with every area's queries */
  store: Store
  /** the store's ledger */
  ledger: AppLedger
  /** null when REDIS_URL is off or nothing answered at start */
  redis: Redis | null
  jobs: Jobs
  mailer: Mailer
  gateway: PaymentGateway
  /** the built-in test gateway, when it is the provider */
  localGateway: LocalGateway | null
  close(): Promise<void>
}

/** Connects to Redis if it answers within a second; the app runs without it (jobs in-process). */
async function probeRedis(url: string | null, logger: Logger): Promise<Redis | null> {
  if (!url) {
    logger.warn('REDIS_URL is off: jobs run in-process and rate limits are kept in memory')
    return null
  }
  // Fails fast while Redis is away, so callers (rate limits) fall back instead of waiting.
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  })
  redis.on('error', () => {}) // reconnects on its own; the probe below reports the first failure
  try {
    await redis.connect()
    await redis.ping()
    return redis
  } catch (error) {
    redis.disconnect()
    logger.warn(
      { err: error },
      `Redis did not answer at ${withoutPassword(url)}: jobs run in-process and rate limits are kept in memory`,
    )
    return null
  }
}

export async function createPlatform(
  config: Config,
  logger: Logger,
  /** opens the store with the app's projections, upcasters and queries (the root's openStore) */
  openStore: (config: Config) => Promise<Store>,
): Promise<Platform> {
  const store = await openStore(config)
  const redis = await probeRedis(config.redisUrl, logger)
  const jobs =
    redis && config.redisUrl
      ? createBullJobs(config.redisUrl, config.queuePrefix, logger)
      : createInProcessJobs(logger)
  const mailer = createMailer(config)
  const { gateway, local } = createGateway(config, store.postgres?.connection.pool ?? null)
  return {
    config,
    logger,
    store,
    ledger: store.ledger,
    redis,
    jobs,
    mailer,
    gateway,
    localGateway: local,
    async close() {
      await jobs.close()
      local?.close()
      mailer.close()
      redis?.disconnect()
      await store.close()
    },
  }
}
