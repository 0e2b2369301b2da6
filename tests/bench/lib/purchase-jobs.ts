// The jobs of a full purchase alone (issue 18), through the app's own BullMQ adapter
// (server/jobs/bullmq.ts: its queue options, its workers' concurrency and locks) on the process's
// core: per purchase, the hold's delayed expiry, the confirmation enqueued by the webhook and again
// by the callback (one job: the same id), the confirmation processed, enqueueing the ticket's mail,
// the mail processed. No ledger, no HTTP, no gateway, no mail drawn or written: whatever else a
// purchase does comes on top, so this rate bounds the purchase's on the same core.
// Options (JSON, first argument): { purchases, concurrency, redisUrl }. Prints one JSON line.
import { Redis } from 'ioredis'
import pino from 'pino'
import { createBullJobs } from '../../../server/jobs/bullmq.ts'
import { job, jobIds } from '../../../server/jobs/catalogue.ts'

const options = JSON.parse(process.argv[2] ?? '{}') as {
  purchases?: number
  concurrency?: number
  redisUrl?: string
}
const purchases = options.purchases ?? 5000
const concurrency = options.concurrency ?? 50
const prefix = `bench-purchase-jobs-${Date.now()}`
const redisUrl = options.redisUrl ?? 'redis://127.0.0.1:6379'
const jobs = createBullJobs(redisUrl, prefix, pino({ level: 'warn' }))

const mailed = new Map<string, () => void>()
jobs.startWorkers({
  payments: async (record) => {
    const { orderId } = record.data as { orderId: string }
    await jobs.enqueue(
      // as the ticket's mail goes: with its pass, so removed from Redis once sent (sensitive)
      job(
        'mail.send',
        {
          to: `${orderId}@example.test`,
          subject: 'Your ticket',
          text: orderId,
          passes: [{ admission: 1, code: `pass-${orderId}-0123456789abcdef0123456789abcdef` }],
        },
        { jobId: jobIds.issuedMail(orderId), sensitive: true },
      ),
    )
  },
  mail: async (record) => {
    mailed.get(String((record.data as { text: string }).text))?.()
  },
})

const cpuBefore = process.cpuUsage()
const started = performance.now()
let next = 0
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < purchases) {
      const orderId = `order${next++}`
      const done = new Promise<void>((resolve) => mailed.set(orderId, resolve))
      await jobs.enqueue(
        job('holds.expire', { orderId }, { jobId: jobIds.expire(orderId), delayMs: 600_000 }),
      )
      const confirm = job(
        'payments.confirm',
        { orderId },
        { jobId: jobIds.confirm(orderId, `pay_${orderId}`) },
      )
      await jobs.enqueue(confirm) // the webhook's
      await jobs.enqueue(confirm) // the callback's: the same job
      await done
      mailed.delete(orderId)
    }
  }),
)
const seconds = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpuBefore)
await jobs.close()
// the run's queues are gone with it (the expiries would wait in Redis for a worker otherwise)
const redis = new Redis(redisUrl)
for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 1000 }))
  if ((keys as string[]).length > 0) await redis.unlink(...(keys as string[]))
redis.disconnect()
console.log(
  JSON.stringify({
    purchases,
    concurrency,
    seconds,
    purchasesPerSecond: purchases / seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  }),
)
process.exit(0)
