// Every area's services, built once per process by the composition root (root.ts) over the
// platform's ledger: the read models' queries, the booking commands and payment confirmer, the
// mails and the sign-in throttle. Consumers get the ones they use, never this module.
import { createThrottle } from './accounts/throttle.ts'
import { billingCommands } from './billing/commands.ts'
import { invoicing } from './billing/invoicing.ts'
import { checkout } from './booking/checkout.ts'
import { bookingCommands, type SeatsLeft } from './booking/commands.ts'
import { paymentConfirmer } from './booking/confirm.ts'
import { bookingMails } from './booking/mails.ts'
import { catalogCommands } from './catalog/commands.ts'
import { doorMails } from './checkin/mails.ts'
import { doorOpening } from './checkin/opening.ts'
import { lazyPassSigner, passSeed } from './checkin/pass-codes.ts'
import { checkinScans } from './checkin/scans.ts'
import { checkinViews } from './checkin/views.ts'
import { decisionLocks } from './db/store.ts'
import { integrationCommands } from './integrations/commands.ts'
import { webhookMails } from './integrations/mails.ts'
import { tokenAuth } from './integrations/token-auth.ts'
import { endpointCommands, webhookCommands } from './integrations/webhooks.ts'
import type { Platform } from './platform.ts'
import { queueCommands } from './queue/commands.ts'
import { inquiryMails } from './support/mails.ts'
import { waitlistCommands } from './waitlist/commands.ts'

/** what a test may stand in for (never set in production): see each part's own comment */
export type Seams = {
  seatsLeft?: SeatsLeft
  /** the day invoices and credit notes are dated (a test's clock at midnight); else the platform's today */
  today?: () => string
}

export function createServices(platform: Platform, seams: Seams = {}) {
  const { ledger, store, config, gateway, redis, jobs } = platform
  const { accounts, catalog, booking, support } = store.queries
  const throttle = createThrottle(config, redis)
  // an order's invoices and credit notes (issue 42): who they name, read before their decision
  const invoices = {
    ...invoicing({ config, lockOf: decisionLocks.invoices }),
    ...(seams.today ? { today: seams.today } : {}),
    orderOf: (orderId: string) => booking.byId(orderId),
  }
  const commands = bookingCommands(ledger, seams.seatsLeft, invoices)
  const confirm = paymentConfirmer({ gateway, booking, catalog, commands, ledger })
  // the key that signs ticket passes: every process with the same settings signs alike (made on
  // first use: the worker process signs nothing, and in development has no JWT_SECRET)
  const signer = lazyPassSigner(() => passSeed(config.jwt.secret, config.passSigningKey))
  const checkin = store.queries.checkin
  const opening = doorOpening(config.timeZone, config.checkinOpensHours)
  const views = checkinViews({
    checkin,
    catalog,
    accounts,
    signer,
    opening,
    head: () => ledger.head(),
    seating: store.queries.seating,
  })
  const validPasses = async (order: Parameters<typeof views.ticketPasses>[0]) =>
    (await views.ticketPasses(order))
      .filter((pass) => pass.status === 'valid')
      .map(({ admission, code }) => ({ admission, code }))
  return {
    accounts,
    catalog,
    booking,
    analytics: store.queries.analytics,
    dashboards: store.queries.dashboards,
    schedule: store.queries.schedule,
    support,
    bookingCommands: commands,
    catalogCommands: catalogCommands(ledger, config.timeZone),
    waitlist: waitlistCommands(ledger, config.booking.offerMinutes),
    waitlistQueries: store.queries.waitlist,
    seating: store.queries.seating,
    queue: store.queries.queue,
    billing: store.queries.billing,
    billingCommands: billingCommands(ledger),
    integrations: store.queries.integrations,
    integrationCommands: integrationCommands(ledger),
    webhooks: store.queries.webhooks,
    webhookCommands: webhookCommands(ledger),
    endpointCommands: endpointCommands(ledger),
    webhookMails: webhookMails({ accounts, publicUrl: config.publicUrl }),
    tokenAuth: tokenAuth({
      config,
      redis,
      integrations: store.queries.integrations,
      accountById: (id) => accounts.byId(id),
    }),
    queueCommands: queueCommands(ledger, {
      admissionMinutes: config.booking.admissionMinutes,
      checkoutTarget: config.booking.queueCheckouts,
    }),
    checkin,
    checkinScans: checkinScans({ ledger, signer, accounts, opening }),
    checkinViews: views,
    confirm,
    checkout: checkout({
      ledger,
      config,
      gateway,
      jobs,
      booking,
      commands,
      confirm,
      events: catalog,
      throttle,
      seating: store.queries.seating,
      queue: store.queries.queue,
      billing: store.queries.billing,
    }),
    bookingMails: bookingMails({
      accounts,
      catalog,
      booking,
      publicUrl: config.publicUrl,
      timeZone: config.timeZone,
      passesOf: validPasses,
      seating: store.queries.seating,
    }),
    inquiryMails: inquiryMails({ accounts, support, publicUrl: config.publicUrl }),
    doorMails: doorMails({ accounts, catalog, publicUrl: config.publicUrl }),
    sentMails: store.sentMails,
    throttle,
  }
}
export type Services = ReturnType<typeof createServices>
