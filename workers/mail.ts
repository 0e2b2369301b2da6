// Queue 'mail': sends one message per job, once: a job id already recorded as sent is skipped.

import type { AsyncQueries } from '../server/db/store.ts'
import { handlers } from '../server/jobs/catalogue.ts'
import type { Processor } from '../server/jobs/port.ts'
import type { Mailer } from '../server/mail/mailer.ts'
import type { SentMailRecord } from '../server/mail/sent.ts'

export const mailProcessor = (mailer: Mailer, sent?: AsyncQueries<SentMailRecord>): Processor =>
  handlers('mail')({
    async send(mail, job) {
      if (await sent?.wasSent(job.id)) return { skipped: 'sent before' }
      const result = await mailer.send(mail)
      await sent?.record(job.id)
      return result
    },
  })
