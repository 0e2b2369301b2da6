// Every queue's processor, from the parts the composition root built (server/root.ts); used by the
// worker process and by the server when it runs the workers itself.
import type { AccountQueries } from '../server/accounts/queries.ts'
import type { BillingQueries } from '../server/billing/queries.ts'
import type { BookingCommands } from '../server/booking/commands.ts'
import type { PaymentConfirmer } from '../server/booking/confirm.ts'
import type { BookingQueries } from '../server/booking/queries.ts'
import type { CatalogQueries } from '../server/catalog/queries.ts'
import type { AsyncQueries } from '../server/db/store.ts'
import type { WebhookQueries } from '../server/integrations/queries.ts'
import { type WebhookCommands, webhookDeliverer, webhookQueuer } from '../server/integrations/webhooks.ts'
import type { Processors } from '../server/jobs/port.ts'
import type { SentMailRecord } from '../server/mail/sent.ts'
import type { Platform } from '../server/platform.ts'
import type { QueueCommands } from '../server/queue/commands.ts'
import type { WaitlistCommands } from '../server/waitlist/commands.ts'
import { holdsProcessor } from './holds.ts'
import { mailProcessor } from './mail.ts'
import { notificationsProcessor } from './notifications.ts'
import { paymentsProcessor } from './payments.ts'

export type WorkerParts = {
  platform: Pick<Platform, 'jobs' | 'config' | 'gateway' | 'mailer' | 'logger' | 'ledger' | 'redis'>
  accounts: AccountQueries
  catalog: CatalogQueries
  booking: BookingQueries
  bookingCommands: BookingCommands
  waitlist: WaitlistCommands
  confirm: PaymentConfirmer
  sentMails: AsyncQueries<SentMailRecord>
  /** the documents a mail names (issue 42), read when it is sent */
  billing: Pick<BillingQueries, 'documentsOf'>
  /** webhooks (issue 43): the queries and decisions the queuer and the deliverer use */
  webhooks: WebhookQueries
  webhookCommands: WebhookCommands
  /** the waiting rooms' decisions: an event called off closes its line */
  queueCommands: Pick<QueueCommands, 'callOff'>
}

export const createProcessors = (parts: WorkerParts): Processors => {
  const { platform, bookingCommands: commands, confirm, booking } = parts
  return {
    mail: mailProcessor(platform.mailer, parts.sentMails, parts.billing),
    payments: paymentsProcessor({ gateway: platform.gateway, commands, confirm }),
    holds: holdsProcessor({
      booking,
      commands,
      confirm,
      events: parts.catalog,
      waitlist: parts.waitlist,
      queue: parts.queueCommands,
    }),
    notifications: notificationsProcessor({
      jobs: platform.jobs,
      config: platform.config,
      booking,
      accounts: parts.accounts,
      events: parts.catalog,
    }),
  }
}

/** How often lapsed holds are looked for, whatever became of their expiry jobs. */
const SWEEP_MS = 30_000

/**
 * Starts the workers; first releases holds that expired while no worker ran, then keeps doing so
 * every half minute (a hold's own expiry job is the fast path; this sweep is the safety net for
 * jobs a Redis without its data forgot). Returns a stop for the sweep.
 */
export function startWorkers(parts: WorkerParts): () => Promise<void> {
  const { platform, bookingCommands: commands } = parts
  const sweepOnce = () =>
    commands
      .releaseLapsedHolds()
      .catch((error) => platform.logger.error({ err: error }, 'the sweep of lapsed holds failed'))
  void sweepOnce()
  platform.jobs.startWorkers(createProcessors(parts))
  const sweep = setInterval(() => void sweepOnce(), SWEEP_MS)
  sweep.unref()
  // webhooks: facts queued for the endpoints that want them, and sent (issue 43)
  const webhookParts = {
    config: platform.config,
    ledger: platform.ledger,
    redis: platform.redis,
    logger: platform.logger,
    webhooks: parts.webhooks,
    commands: parts.webhookCommands,
    reads: { catalog: parts.catalog, booking: parts.booking },
  }
  const queuer = webhookQueuer(webhookParts)
  const deliverer = webhookDeliverer(webhookParts)
  queuer.start()
  deliverer.start()
  return async () => {
    clearInterval(sweep)
    deliverer.stop()
    await queuer.stop()
  }
}
