// Queue 'mail': sends one message per job.
import { UnrecoverableError } from 'bullmq'
import * as v from 'valibot'
import type { Processor } from '../server/jobs/port.ts'
import type { Mailer } from '../server/mail/mailer.ts'

const MailJob = v.object({
  to: v.pipe(v.string(), v.email()),
  subject: v.string(),
  text: v.string(),
  html: v.optional(v.string()),
})

export const mailProcessor =
  (mailer: Mailer): Processor =>
  async (job) => {
    switch (job.name) {
      case 'send': {
        const parsed = v.safeParse(MailJob, job.data)
        if (!parsed.success) throw new UnrecoverableError(`malformed mail job ${job.id}`)
        return mailer.send(parsed.output)
      }
      default:
        throw new UnrecoverableError(`unknown mail job ${job.name}`)
    }
  }
