// The jobs port against real Redis (BullMQ) and in-process, with the real mail processor.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'bullmq'
import pino from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../../server/config.ts'
import { createBullJobs } from '../../server/jobs/bullmq.ts'
import { createInProcessJobs } from '../../server/jobs/in-process.ts'
import type { JobRecord, Jobs, Processors } from '../../server/jobs/port.ts'
import { createMailer } from '../../server/mail/mailer.ts'
import { mailProcessor } from '../../workers/mail.ts'
import { readOutbox, waitForMail } from '../support/outbox.ts'

const logger = pino({ level: 'silent' })
const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

function setup(kind: 'bullmq' | 'in-process') {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-test-'))
  const config = loadConfig({ DATA_DIR: dir })
  const prefix = `test-jobs-${Math.random().toString(16).slice(2)}`
  const jobs: Jobs =
    kind === 'bullmq' ? createBullJobs('redis://127.0.0.1:6379', prefix, logger) : createInProcessJobs(logger)
  const mailer = createMailer(config)
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
  cleanup.push(() => jobs.close())
  return { jobs, mailer, outbox: config.outboxDir }
}

const until = async (check: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe.each(['bullmq', 'in-process'] as const)('jobs (%s)', (kind) => {
  it('sends a mail job to the outbox', async () => {
    const { jobs, mailer, outbox } = setup(kind)
    expect(jobs.kind).toBe(kind)
    jobs.startWorkers({ mail: mailProcessor(mailer) })
    await jobs.enqueue({
      queue: 'mail',
      name: 'send',
      data: { to: 'asha@example.com', subject: `Hello ${kind}`, text: 'Your tickets are ready.' },
    })
    const mail = await waitForMail(outbox, (m) => m.subject === `Hello ${kind}`)
    expect(mail.to).toBe('asha@example.com')
    expect(mail.text).toContain('Your tickets are ready.')
  })

  it('runs a job once per stable job id however often it is enqueued', async () => {
    const { jobs } = setup(kind)
    const runs: JobRecord[] = []
    const processors: Partial<Processors> = {
      mail: async (job) => {
        runs.push(job)
      },
    }
    jobs.startWorkers(processors)
    await Promise.all(
      Array.from({ length: 5 }, () =>
        jobs.enqueue({ queue: 'mail', name: 'send', data: { n: 1 }, jobId: 'order-abc' }),
      ),
    )
    await jobs.enqueue({ queue: 'mail', name: 'send', data: { n: 2 }, jobId: 'order-def' })
    await until(() => runs.length >= 2)
    await new Promise((r) => setTimeout(r, 300))
    expect(runs.map((r) => r.id).sort()).toEqual(['order-abc', 'order-def'])
  })

  it('retries a failing job and runs jobs enqueued before the workers started', async () => {
    const { jobs } = setup(kind)
    await jobs.enqueue({ queue: 'mail', name: 'flaky', data: {}, jobId: 'flaky-1' })
    let attempts = 0
    jobs.startWorkers({
      mail: async () => {
        attempts++
        if (attempts < 2) throw new Error('SMTP hiccup')
      },
    })
    await until(() => attempts >= 2)
    expect(attempts).toBe(2)
  })

  it('holds a delayed job until its time', async () => {
    const { jobs } = setup(kind)
    const ranAt: number[] = []
    jobs.startWorkers({ mail: async () => void ranAt.push(Date.now()) })
    const enqueuedAt = Date.now()
    await jobs.enqueue({ queue: 'mail', name: 'later', data: {}, delayMs: 600 })
    await until(() => ranAt.length === 1)
    expect((ranAt[0] ?? 0) - enqueuedAt).toBeGreaterThanOrEqual(550)
  })
})

/** the process's open TCP sockets */
const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length

/** the process's open TCP sockets once their number has held still for 100 ms */
async function socketsSettled() {
  let before = sockets()
  for (let same = 0; same < 5; ) {
    await new Promise((r) => setTimeout(r, 20))
    same = sockets() === before ? same + 1 : 0
    before = sockets()
  }
  return before
}

describe('jobs on Redis, closed', () => {
  it("leave no connection of theirs open, their workers' too", async () => {
    // the sockets of this process once those of the tests before have closed
    const before = await socketsSettled()
    const prefix = `test-jobs-${Math.random().toString(16).slice(2)}`
    const jobs = createBullJobs('redis://127.0.0.1:6379', prefix, logger)
    let ran = 0
    jobs.startWorkers({
      mail: async () => {
        ran++
      },
      payments: async () => {},
    })
    await jobs.enqueue({ queue: 'mail', name: 'send', data: {}, jobId: 'one' })
    await until(() => ran === 1)
    expect(sockets()).toBeGreaterThan(before)
    await jobs.close()
    // a socket closing is given back on a later turn
    await until(() => sockets() === before, 5_000).catch(() => {})
    expect(sockets()).toBe(before)
  })
})

describe('jobs on Redis, a worker failing to close', () => {
  it('still lets every connection go, and says why it failed', async () => {
    const before = await socketsSettled()
    const jobs = createBullJobs(
      'redis://127.0.0.1:6379',
      `test-jobs-${Math.random().toString(16).slice(2)}`,
      logger,
    )
    let ran = 0
    jobs.startWorkers({ mail: async () => void ran++, payments: async () => {} })
    await jobs.enqueue({ queue: 'mail', name: 'send', data: {}, jobId: 'one' })
    await until(() => ran === 1)
    // the outside world failing: BullMQ's first worker refuses to close (closed for real after)
    const close = Worker.prototype.close
    const spy = vi.spyOn(Worker.prototype, 'close').mockImplementationOnce(async function (this: Worker) {
      await close.call(this)
      throw new Error('worker would not close')
    })
    try {
      await expect(jobs.close()).rejects.toThrow('worker would not close')
    } finally {
      spy.mockRestore()
    }
    await until(() => sockets() === before, 5_000).catch(() => {})
    expect(sockets()).toBe(before)
  })
})

describe('mail processor', () => {
  it('refuses a malformed job without retrying and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobs-test-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const config = loadConfig({ DATA_DIR: dir })
    const process = mailProcessor(createMailer(config))
    await expect(
      process({ id: '1', name: 'send', data: { to: 'not an email' }, attemptsMade: 0 }),
    ).rejects.toThrow(/malformed/)
    await expect(process({ id: '2', name: 'unknown', data: {}, attemptsMade: 0 })).rejects.toThrow(/unknown/)
    expect(readOutbox(config.outboxDir)).toEqual([])
  })
})
