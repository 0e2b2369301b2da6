// Every area's services, built once per process by the composition root (root.ts) over the
// platform's ledger: the read models' queries, the booking commands and payment confirmer, the
// mails and the sign-in throttle. Consumers get the ones they use, never this module.
import { accountQueries } from './accounts/queries.ts'
import { createThrottle } from './accounts/throttle.ts'
import { dashboardQueries } from './analytics/dashboards.ts'
import { analyticsQueries } from './analytics/queries.ts'
import { checkout } from './booking/checkout.ts'
import { bookingCommands, type SeatsLeft } from './booking/commands.ts'
import { paymentConfirmer } from './booking/confirm.ts'
import { bookingMails } from './booking/mails.ts'
import { bookingQueries } from './booking/queries.ts'
import { catalogQueries } from './catalog/queries.ts'
import { sentMailRecord } from './mail/sent.ts'
import type { Platform } from './platform.ts'
import { scheduleQueries } from './schedule/queries.ts'
import { inquiryMails } from './support/mails.ts'
import { supportQueries } from './support/queries.ts'

/** what a test may stand in for (never set in production): see each part's own comment */
export type Seams = { seatsLeft?: SeatsLeft }

export function createServices(platform: Platform, seams: Seams = {}) {
  const { ledger, config, gateway, redis, jobs } = platform
  const db = ledger.db
  const accounts = accountQueries(db)
  const catalog = catalogQueries(db)
  const booking = bookingQueries(db)
  const commands = bookingCommands(ledger, booking, seams.seatsLeft)
  const confirm = paymentConfirmer({ gateway, booking, catalog, commands })
  const support = supportQueries(db)
  return {
    accounts,
    catalog,
    booking,
    analytics: analyticsQueries(db),
    dashboards: dashboardQueries(db),
    schedule: scheduleQueries(db),
    support,
    bookingCommands: commands,
    confirm,
    checkout: checkout({ ledger, config, gateway, jobs, booking, commands, confirm, events: catalog }),
    bookingMails: bookingMails({ accounts, catalog, booking, publicUrl: config.publicUrl }),
    inquiryMails: inquiryMails({ accounts, support, publicUrl: config.publicUrl }),
    sentMails: sentMailRecord(db),
    throttle: createThrottle(config, redis),
  }
}
export type Services = ReturnType<typeof createServices>
