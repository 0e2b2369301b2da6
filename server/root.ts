// The composition root, the one module that knows every other: it builds the ports (database and
// ledger with every projection, Redis, jobs, mail, payment gateway: platform.ts), then each area's
// services once (services.ts: read models' queries, commands, the payment confirmer, the mails), and hands each
// consumer exactly the parts it uses: the HTTP app and its route plugins (app.ts), the reactions
// that turn facts into jobs (reactions.ts) and the job processors (workers/). Areas import ports
// and contracts, and other areas' types at most; never this module.
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { startWorkers } from '../workers/processors.ts'
import { ensureAdmin } from './accounts/seed-admin.ts'
import { createHttpApp } from './app.ts'
import type { Config } from './config.ts'
import { createTokens } from './http/access.ts'
import { createLogger } from './log.ts'
import { createPlatform, type Platform } from './platform.ts'
import { createDispatch, enqueueOwedJobs } from './reactions.ts'
import { createServices, type Seams, type Services } from './services.ts'
import { openStore } from './stores.ts'

/** The ports and the services of one process. */
export async function compose(config: Config, logger: Logger, seams: Seams = {}) {
  const platform = await createPlatform(config, logger, openStore)
  return { platform, services: createServices(platform, seams) }
}

/** Starts the job processors and the sweep of lapsed holds in this process; returns their stop. */
export const runWorkers = (platform: Platform, services: Services) => startWorkers({ platform, ...services })

/**
 * The whole server as one Fastify instance (tests use it with inject()): the HTTP app, the
 * dispatch of facts to jobs with its repair of owed jobs, the workers when WORKERS=inline, and the
 * first admin.
 */
export async function buildApp(
  config: Config,
  logger: Logger = createLogger(config),
  seams: Seams = {},
): Promise<FastifyInstance> {
  const { platform, services } = await compose(config, logger, seams)
  const app = await createHttpApp({ config, logger, platform, services, tokens: createTokens(config) })

  const reactions = { platform, ...services }
  const dispatch = createDispatch(reactions)
  dispatch.start()
  const stopSweep = config.workers === 'inline' ? runWorkers(platform, services) : async () => {}
  // Closing waits for a repair under way, so it does not enqueue into closed connections.
  let owing: Promise<void> = Promise.resolve()
  const owed = () => {
    owing = owing
      .then(() => enqueueOwedJobs(reactions))
      .catch((error) => logger.warn({ err: error }, 'could not enqueue the owed jobs'))
  }
  owed()
  platform.jobs.onReconnect(owed)

  app.addHook('preClose', async () => {
    await stopSweep()
    await owing
    await dispatch.stop()
    await app.live.close()
  })
  app.addHook('onClose', async () => {
    await platform.close()
  })

  if (config.admin) {
    const admin = await ensureAdmin(platform.ledger, services.accounts, config.admin)
    if (admin.created) logger.info(`Admin ${config.admin.email} created`)
    else if (admin.role !== 'admin') {
      logger.warn(
        `ADMIN_EMAIL ${config.admin.email} belongs to an account with role ${admin.role}; left unchanged`,
      )
    }
  }
  return app
}
