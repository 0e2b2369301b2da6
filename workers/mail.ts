// Queue 'mail': sends one message per job, once: a job id already recorded as sent is skipped.
import { UnrecoverableError } from 'bullmq'
import * as v from 'valibot'
import type { Processor } from '../server/jobs/port.ts'
import type { Mailer } from '../server/mail/mailer.ts'
import type { sentMailRecord } from '../server/mail/sent.ts'

const MailJob = v.object({
  to: v.pipe(v.string(), v.email()),
  subject: v.string(),
  text: v.string(),
  html: v.optional(v.string()),
})

export const mailProcessor =
  (mailer: Mailer, sent?: ReturnType<typeof sentMailRecord>): Processor =>
  async (job) => {
    switch (job.name) {
      case 'send': {
        const parsed = v.safeParse(MailJob, job.data)
        if (!parsed.success) throw new UnrecoverableError(`malformed mail job ${job.id}`)
        if (sent?.wasSent(job.id)) return { skipped: 'sent before' }
        const result = await mailer.send(parsed.output)
        sent?.record(job.id)
        return result
      }
      default:
        throw new UnrecoverableError(`unknown mail job ${job.name}`)
    }
  }
