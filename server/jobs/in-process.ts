// Jobs without Redis: run in this process with the same retry policy. Delayed jobs do not survive
// a restart; every consumer that schedules them also repairs on start (e.g. expired holds).
import { UnrecoverableError } from 'bullmq'
import type { Logger } from 'pino'
import { type JobRecord, type JobRequest, type Jobs, type Processors, retryPolicy } from './port.ts'

export function createInProcessJobs(logger: Logger): Jobs {
  let processors: Partial<Processors> | null = null
  const waiting: JobRequest[] = []
  const known = new Set<string>()
  const timers = new Set<NodeJS.Timeout>()
  const running = new Set<Promise<unknown>>()
  let closed = false
  let counter = 0

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      fn()
    }, ms)
    timers.add(timer)
  }

  const attempt = (request: JobRequest, job: JobRecord) => {
    if (closed || !processors) return
    const process = processors[request.queue]
    if (!process) return
    const run = process(job)
      .catch((error) => {
        const attemptsMade = job.attemptsMade + 1
        if (error instanceof UnrecoverableError || attemptsMade >= retryPolicy.attempts) {
          logger.warn({ queue: request.queue, jobId: job.id, err: error }, 'job failed')
          return
        }
        later(retryPolicy.backoffMs * 2 ** job.attemptsMade, () => attempt(request, { ...job, attemptsMade }))
      })
      .finally(() => running.delete(run))
    running.add(run)
  }

  const start = (request: JobRequest) => {
    const job = {
      id: request.jobId ?? `job${++counter}`,
      name: request.name,
      data: request.data,
      attemptsMade: 0,
    }
    later(request.delayMs ?? 0, () => attempt(request, job))
  }

  return {
    kind: 'in-process',
    async enqueue(request) {
      if (closed) return
      if (request.jobId) {
        if (known.has(`${request.queue}/${request.jobId}`)) return
        known.add(`${request.queue}/${request.jobId}`)
      }
      if (processors) start(request)
      else waiting.push(request)
    },
    // Nothing to reconnect to.
    onReconnect() {},
    startWorkers(given) {
      processors = given
      for (const request of waiting.splice(0)) start(request)
    },
    async close() {
      closed = true
      for (const timer of timers) clearTimeout(timer)
      await Promise.allSettled([...running])
    },
  }
}
