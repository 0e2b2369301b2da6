// The worker process (npm run workers): runs every queue's processor against Redis. `npm start`
// runs the same processors inside the server unless WORKERS=off.
import { ConfigError, loadConfig, withJwtSecret, withoutPassword } from '../server/config.ts'
import { loadSettings } from '../server/env-file.ts'
import { steadyHeap } from '../server/heap.ts'
import { createLogger } from '../server/log.ts'
import { compose, runWorkers } from '../server/root.ts'

let config: ReturnType<typeof loadConfig>
try {
  // the secret of the data folder when JWT_SECRET is unset, as the server's: the same Redis prefix
  config = withJwtSecret(loadSettings(() => loadConfig()))
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exit(1)
}
steadyHeap(config.heapGrowingPercent)
const logger = createLogger(config)
const { platform, services } = await compose(config, logger)
if (platform.jobs.kind !== 'bullmq') {
  logger.error(
    'A separate worker process needs Redis (REDIS_URL); without it, npm start runs the jobs itself.',
  )
  await platform.close()
  process.exit(1)
}
const stopSweep = runWorkers(platform, services)
logger.info(
  `Workers are running (queues on ${withoutPassword(config.redisUrl ?? '')}, prefix ${platform.config.queuePrefix})`,
)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    await stopSweep()
    await platform.close()
    process.exit(0)
  })
}
