import { hostname } from 'node:os'
import { pid } from 'node:process'
import { Queue, Worker } from 'bullmq'
import { Redis } from 'ioredis'
import type { Logger } from 'pino'
import {
  type JobRequest,
  type Jobs,
  JobsUnavailable,
  type Processors,
  type QueueName,
  queueNames,
  retryPolicy,
} from './port.ts'

const ENQUEUE_WAIT_MS = 3000

export function createBullJobs(redisUrl: string, prefix: string, logger: Logger): Jobs {
  // BullMQ needs maxRetriesPerRequest: null so blocking commands survive reconnects.
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null })
  const reconnected = new Set<() => void>()
  let readyBefore = false
  connection.on('ready', () => {
    if (readyBefore) for (const listener of reconnected) listener()
    readyBefore = true
  })
  const queues = new Map<QueueName, Queue>()
  const workers: Worker[] = []
  // each worker's own connection: BullMQ leaves a connection it was given open when it closes
  const workerConnections: Redis[] = []
  const queue = (name: QueueName) => {
    let q = queues.get(name)
    if (!q) {
      q = new Queue(name, {
        connection,
        prefix,
        defaultJobOptions: {
          attempts: retryPolicy.attempts,
          backoff: { type: 'exponential', delay: retryPolicy.backoffMs },
          removeOnComplete: { age: 24 * 3600, count: 10_000 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      })
      queues.set(name, q)
    }
    return q
  }
  return {
    kind: 'bullmq',
    async enqueue({ queue: name, name: jobName, data, jobId, delayMs, sensitive }: JobRequest) {
      // While Redis is away the client queues commands until it is back; a caller that cannot
      // wait that long hears so after a few seconds (the add still lands when Redis returns).
      const added = queue(name).add(jobName, data, {
        jobId,
        delay: delayMs,
        ...(sensitive ? { removeOnComplete: true, removeOnFail: true } : {}),
      })
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new JobsUnavailable(`queue ${name} did not answer`)), ENQUEUE_WAIT_MS)
      })
      try {
        await Promise.race([added, late])
      } finally {
        clearTimeout(timer)
      }
    },
    startWorkers(processors: Partial<Processors>) {
      for (const name of queueNames) {
        const process = processors[name]
        if (!process) continue
        const workerConnection = connection.duplicate()
        workerConnections.push(workerConnection)
        const worker = new Worker(
          name,
          (job) =>
            process({
              id: job.id ?? '',
              name: job.name,
              data: job.data,
              attemptsMade: job.attemptsMade,
            }),
          // A worker that dies mid-job hands it on within seconds rather than BullMQ's default minute.
          {
            connection: workerConnection,
            prefix,
            // Names this process in each job it takes (the job's processedBy), for operators and
            // for the cluster test, which kills the worker process that holds a running job.
            name: `${hostname()}:${pid}`,
            concurrency: 8,
            lockDuration: 10_000,
            stalledInterval: 5_000,
            // A job whose process died under it (kill -9, a crash) is taken over again each time:
            // BullMQ's default (1) failed a job stalled twice, and a failed job that carries passes
            // is removed at once (sensitive), so a mail active during two kills was lost (the fault
            // harness's crash trials found it). Every job here is safe to run again.
            maxStalledCount: 20,
          },
        )
        worker.on('failed', (job, error) =>
          logger.warn({ queue: name, jobId: job?.id, attempts: job?.attemptsMade, err: error }, 'job failed'),
        )
        worker.on('error', (error) => logger.error({ queue: name, err: error }, 'worker error'))
        workers.push(worker)
      }
    },
    onReconnect(listener) {
      reconnected.add(listener)
    },
    async close() {
      reconnected.clear()
      // every worker and queue is asked to close, and every connection is let go, even when one of
      // them fails to close (the first failure is thrown after): none is left open behind it
      // (the workers first: a job finishing may still add to a queue)
      const closed = [
        ...(await Promise.allSettled(workers.map((w) => w.close()))),
        ...(await Promise.allSettled([...queues.values()].map((q) => q.close()))),
      ]
      for (const c of workerConnections) c.disconnect()
      connection.disconnect()
      const failed = closed.find((r): r is PromiseRejectedResult => r.status === 'rejected')
      if (failed) throw failed.reason
    },
  }
}
