// Every queue's processor, built from the platform's parts; used by the worker process and by
// the server when it runs the workers itself.
import type { Processors } from '../server/jobs/port.ts'
import type { Platform } from '../server/platform.ts'
import { mailProcessor } from './mail.ts'

export const createProcessors = (platform: Platform): Processors => ({
  mail: mailProcessor(platform.mailer),
})
