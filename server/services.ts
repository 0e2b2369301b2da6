// Every area's services, built once per process by the composition root (root.ts) over the
// platform's ledger: the read models' queries, the booking commands and payment confirmer, the
// mails and the sign-in throttle. Consumers get the ones they use, never this module.
import { createThrottle } from './accounts/throttle.ts'
import { checkout } from './booking/checkout.ts'
import { bookingCommands, type SeatsLeft } from './booking/commands.ts'
import { paymentConfirmer } from './booking/confirm.ts'
import { bookingMails } from './booking/mails.ts'
import { lazyPassSigner, passSeed } from './checkin/pass-codes.ts'
import { checkinScans } from './checkin/scans.ts'
import { checkinViews } from './checkin/views.ts'
import type { Platform } from './platform.ts'
import { inquiryMails } from './support/mails.ts'

/** what a test may stand in for (never set in production): see each part's own comment */
export type Seams = { seatsLeft?: SeatsLeft }

export function createServices(platform: Platform, seams: Seams = {}) {
  const { ledger, store, config, gateway, redis, jobs } = platform
  const { accounts, catalog, booking, support } = store.queries
  const commands = bookingCommands(ledger, seams.seatsLeft)
  const confirm = paymentConfirmer({ gateway, booking, catalog, commands })
  // the key that signs ticket passes: every process with the same settings signs alike (made on
  // first use: the worker process signs nothing, and in development has no JWT_SECRET)
  const signer = lazyPassSigner(() => passSeed(config.jwt.secret, config.passSigningKey))
  const checkin = store.queries.checkin
  return {
    accounts,
    catalog,
    booking,
    analytics: store.queries.analytics,
    dashboards: store.queries.dashboards,
    schedule: store.queries.schedule,
    support,
    bookingCommands: commands,
    checkin,
    checkinScans: checkinScans({ ledger, signer, accounts }),
    checkinViews: checkinViews({ checkin, catalog, accounts, signer, head: () => ledger.head() }),
    confirm,
    checkout: checkout({ ledger, config, gateway, jobs, booking, commands, confirm, events: catalog }),
    bookingMails: bookingMails({ accounts, catalog, booking, publicUrl: config.publicUrl }),
    inquiryMails: inquiryMails({ accounts, support, publicUrl: config.publicUrl }),
    sentMails: store.sentMails,
    throttle: createThrottle(config, redis),
  }
}
export type Services = ReturnType<typeof createServices>
