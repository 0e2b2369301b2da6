// Queue 'mail': sends one message per job, once: a job id already recorded as sent is skipped. A
// mail naming an order's documents (`documentsOf`) has them read now and attached as PDFs.

import { UnrecoverableError } from 'bullmq'
import { documentView } from '../server/billing/documents.ts'
import type { BillingQueries } from '../server/billing/queries.ts'
import type { AsyncQueries } from '../server/db/store.ts'
import { handlers } from '../server/jobs/catalogue.ts'
import type { Processor } from '../server/jobs/port.ts'
import type { Mail, Mailer } from '../server/mail/mailer.ts'
import type { SentMailRecord } from '../server/mail/sent.ts'

/** the mail with the documents it names read (an order's of one series), as the mailer attaches them */
async function withDocuments(mail: Mail, billing?: Pick<BillingQueries, 'documentsOf'>): Promise<Mail> {
  const { documentsOf, ...rest } = mail
  if (!documentsOf) return rest
  if (!billing)
    throw new UnrecoverableError(
      `a mail naming order ${documentsOf.orderId}'s documents, and nothing to read them`,
    )
  const documents = (await billing.documentsOf(documentsOf.orderId))
    .filter((d) => d.series === documentsOf.series)
    .map((d) => documentView(d.document))
  return documents.length > 0 ? { ...rest, documents: [...(rest.documents ?? []), ...documents] } : rest
}

/** `billing` reads the documents a mail names: without it such a mail is refused, never sent without them */
export const mailProcessor = (
  mailer: Mailer,
  sent?: AsyncQueries<SentMailRecord>,
  billing?: Pick<BillingQueries, 'documentsOf'>,
): Processor =>
  handlers('mail')({
    async send(mail, job) {
      if (await sent?.wasSent(job.id)) return { skipped: 'sent before' }
      const result = await mailer.send(await withDocuments(mail, billing))
      await sent?.record(job.id)
      return result
    },
  })
