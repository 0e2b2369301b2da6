// After commit, facts become jobs: a consumer with a stored checkpoint reads the ledger and
// enqueues what each fact calls for, with stable job ids so a replay after a crash adds nothing.
// Part of the composition root: it joins every area's facts to the jobs of the catalogue.
import type { BookingMails } from './booking/mails.ts'
import type { BookingQueries } from './booking/queries.ts'
import type { DoorMails } from './checkin/mails.ts'
import type { AsyncQueries } from './db/store.ts'
import { streams } from './ids.ts'
import type { WebhookMails } from './integrations/mails.ts'
import { job, jobIds } from './jobs/catalogue.ts'
import type { JobRequest } from './jobs/port.ts'
import { Consumer } from './ledger/consumer.ts'
import { streamFacts, typedFact } from './ledger/decider.ts'
import type { StoredFact } from './ledger/ledger.ts'
import type { KnownFact } from './live/pushes.ts'
import type { Mail } from './mail/mailer.ts'
import type { SentMailRecord } from './mail/sent.ts'
import type { Platform } from './platform.ts'
import type { InquiryMails } from './support/mails.ts'

export type ReactionParts = {
  platform: Pick<Platform, 'ledger' | 'jobs' | 'config' | 'logger'>
  booking: BookingQueries
  bookingMails: BookingMails
  inquiryMails: InquiryMails
  doorMails: DoorMails
  webhookMails: WebhookMails
  sentMails: AsyncQueries<SentMailRecord>
}

/** How far back the repair looks for mails that may not have been sent. */
const RECENT_FACTS = 20_000
/** How far back a hold released unpaid may still have a payment waiting for its confirmation. */
const RELEASED_LOOKBACK_MS = 24 * 3_600_000

/**
 * The jobs whose work is still owed, enqueued again under their stable ids (a no-op for those
 * the queue still has): the expiry and the confirmation of every open hold, every refund asked
 * for, and the mails of recent facts not recorded as sent. Run at start and whenever Redis comes
 * back, since a Redis that restarted without its data has forgotten its jobs.
 */
export async function enqueueOwedJobs(parts: ReactionParts) {
  const { ledger, jobs } = parts.platform
  const { booking, sentMails: sent } = parts
  const round = Date.now()
  for (const order of await booking.openHolds()) {
    const delayMs = Math.max(0, Date.parse(order.heldUntil) - Date.now())
    await jobs.enqueue(
      job('holds.expire', { orderId: order.id }, { jobId: jobIds.expire(order.id), delayMs }),
    )
    // A confirmation queued before Redis lost its data: ask the provider again now.
    if (order.provider !== 'free') {
      await jobs.enqueue(owedConfirmation(order.id, round))
    }
  }
  // An order released unpaid (its buyer gave it up or replaced it, or it lapsed) may have been
  // paid at the provider just before, its confirmation lost with Redis's data: ask again.
  const since = new Date(Date.now() - RELEASED_LOOKBACK_MS).toISOString()
  for (const order of await booking.releasedUnpaid(since)) {
    await jobs.enqueue(owedConfirmation(order.id, round))
  }
  // Mails of the recent facts that are not recorded as sent (a job that ran is not sent again).
  const jobsOf = jobsForFacts(parts)
  const mailing = new Set([
    'TicketsIssued',
    'TicketCancelled',
    'TicketTransferred',
    'InquiryAnswered',
    'WaitlistOffered',
    'DoorStaffInvited',
    'RefundRequested',
  ])
  const mailedSince = await sent.recordedSince()
  for (let position = Math.max(0, (await ledger.head()) - RECENT_FACTS); ; ) {
    const page = await ledger.readFrom(position, 1000)
    if (page.length === 0) break
    for (const fact of page) {
      if (!mailing.has(fact.type) || fact.at < mailedSince) continue
      for (const job of await jobsOf(fact)) {
        // a refund's mail only: the refund itself, if still owed, is enqueued below
        if (fact.type === 'RefundRequested' && job.queue !== 'mail') continue
        if (job.jobId && !(await sent.wasSent(job.jobId))) await jobs.enqueue(job)
      }
    }
    position = page[page.length - 1]?.position ?? position
  }
  // An event called off with orders still open: its cancellation is done again (what is done stays).
  for (const eventId of await booking.cancelledWithOpenOrders()) {
    await jobs.enqueue(job('holds.cancel-event', { eventId }, { jobId: jobIds.cancelEvent(eventId, round) }))
  }
  for (const order of await booking.refundsOwed()) {
    const facts = await streamFacts<KnownFact>(ledger, streams.order(order.id))
    const paid = new Set(facts.flatMap((f) => (f.type === 'PaymentRefunded' ? [f.data.paymentId] : [])))
    for (const fact of facts) {
      if (fact.type !== 'RefundRequested' || paid.has(fact.data.paymentId)) continue
      const { orderId, paymentId, amountPaise } = fact.data
      await jobs.enqueue(refundJob(orderId, paymentId, amountPaise))
    }
  }
}

const owedConfirmation = (orderId: string, round: number) =>
  job('payments.confirm', { orderId }, { jobId: jobIds.confirmOwed(orderId, round) })

const refundJob = (orderId: string, paymentId: string, amountPaise: number) =>
  job('payments.refund', { orderId, paymentId, amountPaise }, { jobId: jobIds.refund(orderId, paymentId) })

/** What each fact calls for, as jobs (shared by the dispatch consumer and the owed-jobs repair). */
function jobsForFacts(
  parts: Pick<
    ReactionParts,
    'platform' | 'bookingMails' | 'inquiryMails' | 'doorMails' | 'booking' | 'webhookMails'
  >,
) {
  const { bookingMails: mails, inquiryMails: supportMails, doorMails, booking } = parts
  /**
   * The seats a seated order's last hold named (issue 40): a cancelled ticket's mail lists them,
   * freed by then (the seats read model keeps only the last order of a seat, which another may hold
   * by now).
   */
  const seatsHeld = async (orderId: string) =>
    (await streamFacts<KnownFact>(parts.platform.ledger, streams.order(orderId))).findLast(
      (f) => f.type === 'TicketsHeld',
    )?.data.seats
  /** the waiting list's serving, when anyone waits for this ticket type (issue 17) */
  const serveIfWaiting = async (ticketTypeId: string, eventId: string, position: number) =>
    (await booking.waiting(ticketTypeId))
      ? [
          job(
            'holds.serve-waitlist',
            { ticketTypeId, eventId },
            { jobId: jobIds.serveWaitlist(ticketTypeId, position) },
          ),
        ]
      : []
  const mail = (jobId: string, message: Mail | null): JobRequest[] =>
    // a mail with passes carries codes that let people in: gone from Redis once sent, as a reset link
    message ? [job('mail.send', message, { jobId, sensitive: Boolean(message.passes?.length) })] : []

  const jobsOf = async (stored: StoredFact): Promise<JobRequest[]> => {
    const fact = typedFact<KnownFact>(stored)
    switch (fact.type) {
      case 'TicketsHeld': {
        const { orderId, heldUntil, amountPaise } = fact.data
        if (amountPaise === 0) return []
        const delayMs = Math.max(0, Date.parse(heldUntil) - Date.now())
        return [job('holds.expire', { orderId }, { jobId: jobIds.expire(orderId), delayMs })]
      }
      case 'TicketsIssued':
        return mail(
          jobIds.issuedMail(fact.data.orderId),
          await mails.issued(fact.data.orderId, fact.data.ownerId),
        )
      case 'TicketCancelled':
        return [
          ...mail(
            jobIds.cancelledMail(fact.data.orderId),
            await mails.cancelled(
              fact.data.orderId,
              fact.data.ownerId,
              fact.data.eventCancelled,
              fact.data.refundedBy,
              await seatsHeld(fact.data.orderId),
            ),
          ),
          ...(await serveIfWaiting(fact.data.ticketTypeId, fact.data.eventId, fact.position)),
        ]
      case 'PaymentFailed':
      case 'HoldExpired': {
        // seats back: a waiting list, if anyone waits, is offered them
        const order = await booking.byId(fact.data.orderId)
        return order ? serveIfWaiting(order.ticketTypeId, order.eventId, fact.position) : []
      }
      case 'WaitlistLeft':
        return fact.data.wasOffered
          ? serveIfWaiting(fact.data.ticketTypeId, fact.data.eventId, fact.position)
          : []
      case 'WaitlistOffered': {
        const { entryId, ticketTypeId, eventId, offerUntil } = fact.data
        const lapse = job(
          'holds.serve-waitlist',
          { ticketTypeId, eventId },
          { jobId: jobIds.offerLapse(entryId), delayMs: Math.max(0, Date.parse(offerUntil) - Date.now()) },
        )
        return [lapse, ...mail(jobIds.offerMail(entryId), await mails.offered(fact.data))]
      }
      case 'WaitlistJoined':
      case 'WaitlistServed': {
        // Seats may be free for the list yet kept from sale (a group ahead that they do not fit, or
        // an offer booked with fewer seats than it held): the next they fit is offered them now,
        // not when some other seat comes back. A list joined because the type sold out, or an offer
        // booked whole, leaves none free, and costs no job.
        const { ticketTypeId, eventId } = fact.data
        return (await booking.freeSeats(ticketTypeId)) > 0
          ? serveIfWaiting(ticketTypeId, eventId, fact.position)
          : []
      }
      case 'WaitlistOfferLapsed':
        return []
      case 'EventCancelled':
        return [
          job(
            'holds.cancel-event',
            { eventId: fact.data.eventId },
            { jobId: jobIds.cancelEvent(fact.data.eventId) },
          ),
        ]
      case 'EventEdited': {
        const { moved, eventId, ticketTypes } = fact.data
        // a capacity raised gives its seats to the waiting list first
        const serving: JobRequest[] = []
        for (const type of ticketTypes ?? [])
          serving.push(...(await serveIfWaiting(type.ticketTypeId, eventId, fact.position)))
        if (!moved) return serving
        return [
          ...serving,
          job(
            'notifications.moved',
            { eventId, position: fact.position, was: moved },
            { jobId: jobIds.moved(fact.position) },
          ),
        ]
      }
      case 'TicketTransferred': {
        const { orderId, fromId, toId } = fact.data
        return (await mails.transferred(orderId, fromId, toId)).flatMap((message, i) =>
          mail(jobIds.transferMail(fact.position, i), message),
        )
      }
      case 'RefundRequested': {
        const { orderId, paymentId, amountPaise, reason } = fact.data
        // a payment that came after its checkout closed and issued no ticket: its buyer is told why
        const late = reason === 'sold out after hold expired' || reason === 'promo code no longer valid'
        return [
          refundJob(orderId, paymentId, amountPaise),
          ...(late
            ? mail(jobIds.lateRefundMail(orderId, paymentId), await mails.lateRefund(orderId, fact.data))
            : []),
        ]
      }
      case 'ScheduleNoticePosted': {
        const { noticeId, eventId, startTime, endTime } = fact.data
        return [
          job(
            'notifications.announce',
            { noticeId, eventId, startTime, endTime },
            { jobId: jobIds.notice(noticeId) },
          ),
        ]
      }
      case 'InquiryAnswered':
        return mail(jobIds.answerMail(fact.data.inquiryId), await supportMails.answered(fact.data.inquiryId))
      case 'WebhookEndpointDisabled':
        return mail(`mail-webhook-off-${fact.position}`, await parts.webhookMails.disabled(fact.data))
      case 'DoorStaffInvited':
        // one mail per invitation sent (sent again: mailed again)
        return mail(jobIds.doorInvitationMail(fact.position), await doorMails.invited(fact.data))
      case 'SessionScheduled':
      case 'InquiryOpened':
      case 'AccountRegistered':
      case 'PasswordResetRequested':
      case 'PasswordReset':
      case 'EventSubmitted':
      case 'EventApproved':
      case 'EventRejected':
      case 'PaymentCaptured':
      case 'PaymentRefunded':
      case 'PassAdmitted':
      case 'PassScanRefused':
      case 'DoorStaffAdded':
      case 'DoorStaffAccepted':
      case 'DoorStaffRemoved':
      case 'PromoCodeCreated':
      case 'PromoCodeDisabled':
      // a waiting room's people hear of their places live (live/pushes.ts)
      case 'BillingProfileSet':
      case 'BookingFeeSet':
      // an invoice goes with the ticket's own mail (TicketsIssued), which waits for nothing else
      case 'InvoiceIssued':
      case 'CreditNoteIssued':
      case 'ApiTokenCreated':
      case 'ApiTokenRevoked':
      // webhooks are delivered by their own consumer and deliverer (integrations/)
      case 'WebhookEndpointAdded':
      case 'WebhookEndpointRemoved':
      case 'WebhookQueued':
      case 'WebhookDelivered':
      case 'WebhookAttemptFailed':
      case 'WebhookEndpointTurnedOn':
      case 'WebhookRetryAsked':
      case 'OnSaleSet':
      case 'QueueJoined':
      case 'QueueOpened':
      case 'QueueAdmitted':
      case 'QueuePaused':
      case 'QueueResumed':
      case 'QueueClosed':
        return []
      case 'SeatMapPlaced': {
        // seats added to a seated type go to its waiting list first
        const serving: JobRequest[] = []
        for (const ticketTypeId of Object.keys(fact.data.capacities))
          serving.push(...(await serveIfWaiting(ticketTypeId, fact.data.eventId, fact.position)))
        return serving
      }
      default:
        return (fact satisfies never) && []
    }
  }
  return jobsOf
}

export function createDispatch(parts: ReactionParts): Consumer {
  const { ledger, jobs, config, logger } = parts.platform
  const jobsOf = jobsForFacts(parts)
  return new Consumer(
    ledger,
    'jobs',
    async (fact) => {
      for (const job of await jobsOf(fact)) await jobs.enqueue(job)
    },
    {
      pollMs: config.ledgerPollMs,
      onError: (error, fact) =>
        logger.error({ err: error, position: fact.position }, 'could not enqueue jobs for a fact'),
    },
  )
}
