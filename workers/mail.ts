// Queue 'mail': sends one message per job, once: a job id already recorded as sent is skipped.
import { handlers } from '../server/jobs/catalogue.ts'
import type { Processor } from '../server/jobs/port.ts'
import type { Mailer } from '../server/mail/mailer.ts'
import type { SentMailRecord } from '../server/mail/sent.ts'

export const mailProcessor = (mailer: Mailer, sent?: SentMailRecord): Processor =>
  handlers('mail')({
    async send(mail, job) {
      if (sent?.wasSent(job.id)) return { skipped: 'sent before' }
      const result = await mailer.send(mail)
      sent?.record(job.id)
      return result
    },
  })
