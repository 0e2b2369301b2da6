// The jobs port: what the app and its consumers need from a queue. Adapters: BullMQ on Redis
// (server/jobs/bullmq.ts) and an in-process fallback when no Redis answers (in-process.ts).
export const queueNames = ['mail', 'payments', 'holds', 'notifications'] as const
export type QueueName = (typeof queueNames)[number]

export type JobRequest = {
  queue: QueueName
  name: string
  data: unknown
  /** stable id: a second enqueue with the same id while the first is kept is a no-op (no ':') */
  jobId?: string
  delayMs?: number
  /** the data holds a secret (a reset link): removed from the queue as soon as it is done */
  sensitive?: boolean
}

export type JobRecord = { id: string; name: string; data: unknown; attemptsMade: number }
export type Processor = (job: JobRecord) => Promise<unknown>
export type Processors = Record<QueueName, Processor>

export interface Jobs {
  readonly kind: 'bullmq' | 'in-process'
  enqueue(request: JobRequest): Promise<void>
  /** Runs the given queues' processors in this process. */
  startWorkers(processors: Partial<Processors>): void
  /** Called each time the queue's store comes back after being unreachable. */
  onReconnect(listener: () => void): void
  close(): Promise<void>
}

/** The queue could not take a job in time (Redis away): the caller does the work itself or says so. */
export class JobsUnavailable extends Error {}

/** Enqueues the job; when the queue cannot take it in time (Redis away), does the same work now. */
export async function enqueueOrDoNow(jobs: Jobs, request: JobRequest, now: () => Promise<unknown>) {
  try {
    await jobs.enqueue(request)
  } catch (error) {
    if (!(error instanceof JobsUnavailable)) throw error
    await now()
  }
}

export const retryPolicy = { attempts: 5, backoffMs: 1000 }
