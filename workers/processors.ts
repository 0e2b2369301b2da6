// Every queue's processor, built from the platform's parts; used by the worker process and by
// the server when it runs the workers itself.
import { bookingCommands } from '../server/booking/commands.ts'
import type { Processors } from '../server/jobs/port.ts'
import type { Platform } from '../server/platform.ts'
import { holdsProcessor } from './holds.ts'
import { mailProcessor } from './mail.ts'
import { notificationsProcessor } from './notifications.ts'
import { paymentsProcessor } from './payments.ts'

export const createProcessors = (platform: Platform): Processors => ({
  mail: mailProcessor(platform.mailer),
  payments: paymentsProcessor(platform),
  holds: holdsProcessor(platform),
  notifications: notificationsProcessor(platform),
})

/** Starts the workers; first releases holds that expired while no worker ran. */
export function startWorkers(platform: Platform) {
  bookingCommands(platform.ledger).releaseLapsedHolds()
  platform.jobs.startWorkers(createProcessors(platform))
}
