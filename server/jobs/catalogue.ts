// Every job the app runs, in one place: its queue, its name, the schema of its data and how its
// id is built. Whoever enqueues (the dispatch of facts, the owed-jobs repair, routes, the webhook)
// goes through `job()`, so a job's data is checked when it is made, and processors parse it with
// the same schema (`handlers()`), so a malformed job fails for good instead of being retried. A
// job id is stable: enqueueing the same job twice while the first is kept is a no-op.
import { UnrecoverableError } from 'bullmq'
import * as v from 'valibot'
import type { InvoiceDocument } from '../../contracts/billing.ts'
import { toPaise } from '../money.ts'
import type { JobRecord, JobRequest, Processor, QueueName } from './port.ts'

const Mail = v.object({
  to: v.pipe(v.string(), v.email()),
  subject: v.string(),
  text: v.string(),
  html: v.optional(v.string()),
  /** ticket passes the mail shows as QR codes (drawn when it is sent) */
  passes: v.optional(
    v.pipe(
      v.array(v.object({ admission: v.pipe(v.number(), v.safeInteger()), code: v.string() })),
      v.maxLength(100),
    ),
  ),
  /** invoices and credit notes attached as PDFs (drawn when it is sent): the documents themselves
   * (what a mail queued before `documentsOf` carries) */
  documents: v.optional(
    v.pipe(
      v.array(
        v.custom<InvoiceDocument>(
          (d) =>
            typeof d === 'object' && d !== null && typeof (d as { number?: unknown }).number === 'string',
          'a document',
        ),
      ),
      v.maxLength(4),
    ),
  ),
  /** an order's documents of one series, read and attached when it is sent (a job queued before
   * carries `documents` instead) */
  documentsOf: v.optional(v.object({ orderId: v.string(), series: v.picklist(['invoice', 'credit-note']) })),
})
const Order = v.object({ orderId: v.string() })
const Paise = v.pipe(v.number(), v.safeInteger())

/** queue, name and data schema of each job kind, keyed `queue.name` */
export const catalogue = {
  'mail.send': { queue: 'mail', name: 'send', data: Mail },
  'payments.confirm': { queue: 'payments', name: 'confirm', data: Order },
  'payments.refund': {
    queue: 'payments',
    name: 'refund',
    data: v.union([
      v.object({ orderId: v.string(), paymentId: v.string(), amountPaise: Paise }),
      // a job enqueued before money was kept in paise carries rupees in `amount`
      v.pipe(
        v.object({ orderId: v.string(), paymentId: v.string(), amount: v.number() }),
        v.transform(({ amount, ...job }) => ({ ...job, amountPaise: toPaise(amount) })),
      ),
    ]),
  },
  'holds.expire': { queue: 'holds', name: 'expire', data: Order },
  /** every order of an event called off: holds released, tickets cancelled and refunded (issue 17) */
  /** a waiting list's seats offered in order, overdue offers lapsed first (issue 17) */
  'holds.serve-waitlist': {
    queue: 'holds',
    name: 'serve-waitlist',
    data: v.object({ ticketTypeId: v.string(), eventId: v.string() }),
  },
  'holds.cancel-event': { queue: 'holds', name: 'cancel-event', data: v.object({ eventId: v.string() }) },
  'notifications.announce': {
    queue: 'notifications',
    name: 'announce',
    data: v.object({ noticeId: v.string(), eventId: v.string(), startTime: v.string(), endTime: v.string() }),
  },
  /** an approved event's date, time or place changed: a mail to each holder (issue 17) */
  'notifications.moved': {
    queue: 'notifications',
    name: 'moved',
    data: v.object({
      eventId: v.string(),
      position: v.number(),
      was: v.object({ date: v.string(), time: v.string(), location: v.string() }),
    }),
  },
} as const satisfies Record<string, { queue: QueueName; name: string; data: v.GenericSchema }>

export type JobKind = keyof typeof catalogue
export type JobData<K extends JobKind> = v.InferOutput<(typeof catalogue)[K]['data']>

/** The stable job ids: one place, so a repair re-enqueues under the same id as the first time. */
export const jobIds = {
  expire: (orderId: string) => `expire-${orderId}`,
  /** one per event (a repair round enqueues it again while orders are left) */
  /** after the fact at `position` gave seats back; or when an entry's offer runs out */
  serveWaitlist: (ticketTypeId: string, position: number) => `serve-${ticketTypeId}-${position}`,
  offerLapse: (entryId: string) => `offer-lapse-${entryId}`,
  offerMail: (entryId: string) => `mail-offer-${entryId}`,
  cancelEvent: (eventId: string, round?: number) =>
    `cancel-event-${eventId}${round === undefined ? '' : `-${round}`}`,
  /** one confirmation per order and payment, however often the callback and the webhook arrive */
  confirm: (orderId: string, paymentId: string) => `confirm-${orderId}-${paymentId}`,
  /** a confirmation asked again after the queue's store lost its jobs, once per repair round */
  confirmOwed: (orderId: string, round: number) => `confirm-${orderId}-owed-${round}`,
  refund: (orderId: string, paymentId: string) => `refund-${orderId}-${paymentId}`,
  notice: (noticeId: string) => `notice-${noticeId}`,
  noticeMail: (noticeId: string, accountId: string) => `mail-notice-${noticeId}-${accountId}`,
  moved: (position: number) => `moved-${position}`,
  movedMail: (position: number, accountId: string) => `mail-moved-${position}-${accountId}`,
  issuedMail: (orderId: string) => `mail-issued-${orderId}`,
  cancelledMail: (orderId: string) => `mail-cancelled-${orderId}`,
  /** a late payment refunded instead of issuing the ticket: one mail per payment */
  lateRefundMail: (orderId: string, paymentId: string) => `mail-refund-${orderId}-${paymentId}`,
  transferMail: (position: number, index: number) => `mail-transfer-${position}-${index}`,
  answerMail: (inquiryId: string) => `mail-answer-${inquiryId}`,
  doorInvitationMail: (position: number) => `mail-door-invitation-${position}`,
  resetMail: (tokenHash: string) => `reset-${tokenHash.slice(0, 32)}`,
}

/** A job request of a known kind; its data is checked against the kind's schema here. */
export function job<K extends JobKind>(
  kind: K,
  data: JobData<K>,
  options: { jobId?: string; delayMs?: number; sensitive?: boolean } = {},
): JobRequest {
  const { queue, name, data: schema } = catalogue[kind]
  return { queue, name, data: v.parse(schema, data), ...options }
}

/** a handler for each job kind of queue Q, keyed by the job's name, given the kind's parsed data */
export type QueueHandlers<Q extends QueueName> = {
  [K in JobKind as (typeof catalogue)[K]['queue'] extends Q ? (typeof catalogue)[K]['name'] : never]: (
    data: JobData<K>,
    job: JobRecord,
  ) => Promise<unknown>
}

/**
 * One queue's processor from a handler per job kind of that queue: `handlers('holds')({ expire })`.
 * The compiler insists on a handler for each kind (add a kind to the catalogue and its queue's
 * processor must handle it), and each handler gets its data parsed. An unknown name or malformed
 * data fails the job for good. (Curried so the handlers are typed from the queue already fixed.)
 */
export const handlers =
  <Q extends QueueName>(queue: Q) =>
  (handle: QueueHandlers<Q>): Processor => {
    const byName = handle as Record<string, (data: unknown, job: JobRecord) => Promise<unknown>>
    return async (record) => {
      const kind = `${queue}.${record.name}` as JobKind
      const spec = catalogue[kind]
      const run = byName[record.name]
      if (!spec || spec.queue !== queue || !run) {
        throw new UnrecoverableError(`unknown ${queue} job ${record.name}`)
      }
      const parsed = v.safeParse(spec.data, record.data)
      if (!parsed.success) throw new UnrecoverableError(`malformed job ${record.id}`)
      return run(parsed.output, record)
    }
  }
