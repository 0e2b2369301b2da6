// Process entry: config → the composed app (root.ts: with the workers when WORKERS=inline) →
// listen; closes cleanly on SIGINT/SIGTERM.
import { ConfigError, loadConfig, withJwtSecret } from './config.ts'
import { loadSettings } from './env-file.ts'
import { steadyHeap } from './heap.ts'
import { createLogger } from './log.ts'
import { buildApp } from './root.ts'

let config: ReturnType<typeof loadConfig>
try {
  config = withJwtSecret(loadSettings(() => loadConfig()))
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exit(1)
}
steadyHeap(config.heapGrowingPercent)

const logger = createLogger(config)
if (config.payments.testMode) {
  logger.warn(
    'ALLOW_TEST_PAYMENTS=on: payments go through the built-in test gateway and no money moves. ' +
      'Every page shows the banner "Test mode: no money moves". Set PAYMENT_PROVIDER=razorpay for a real sale.',
  )
}
const app = await buildApp(config, logger)
await app.listen({ host: config.host, port: config.port })
logger.info(
  `Event Management is listening on http://localhost:${config.port} (data in ${config.dataDir}; jobs ${
    app.platform.jobs.kind === 'bullmq' ? 'on Redis' : 'in-process'
  }; workers ${config.workers === 'inline' ? 'in this process' : 'off'})`,
)

let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return
    closing = true
    logger.info(`${signal}: closing`)
    const timer = setTimeout(() => process.exit(1), 10_000)
    timer.unref()
    await app.close()
    process.exit(0)
  })
}
