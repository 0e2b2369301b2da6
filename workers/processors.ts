// Every queue's processor, built from the platform's parts; used by the worker process and by
// the server when it runs the workers itself.
import { bookingCommands } from '../server/booking/commands.ts'
import type { Processors } from '../server/jobs/port.ts'
import { sentMailRecord } from '../server/mail/sent.ts'
import type { Platform } from '../server/platform.ts'
import { holdsProcessor } from './holds.ts'
import { mailProcessor } from './mail.ts'
import { notificationsProcessor } from './notifications.ts'
import { paymentsProcessor } from './payments.ts'

export const createProcessors = (platform: Platform): Processors => ({
  mail: mailProcessor(platform.mailer, sentMailRecord(platform.ledger.db)),
  payments: paymentsProcessor(platform),
  holds: holdsProcessor(platform),
  notifications: notificationsProcessor(platform),
})

/** How often lapsed holds are looked for, whatever became of their expiry jobs. */
const SWEEP_MS = 30_000

/**
 * Starts the workers; first releases holds that expired while no worker ran, then keeps doing so
 * every half minute (a hold's own expiry job is the fast path; this sweep is the safety net for
 * jobs a Redis without its data forgot). Returns a stop for the sweep.
 */
export function startWorkers(platform: Platform): () => void {
  const commands = bookingCommands(platform.ledger)
  commands.releaseLapsedHolds()
  platform.jobs.startWorkers(createProcessors(platform))
  const sweep = setInterval(() => {
    try {
      commands.releaseLapsedHolds()
    } catch (error) {
      platform.logger.error({ err: error }, 'the sweep of lapsed holds failed')
    }
  }, SWEEP_MS)
  sweep.unref()
  return () => clearInterval(sweep)
}
