// Facts as the activity feed shows them: no secrets, and one line a person can read.

import type { ActivityItem } from '../../contracts/activity.ts'
import { feeSummary } from '../../contracts/billing.ts'
import type { AccountRegistered } from '../accounts/facts.ts'
import type { AccountQueries } from '../accounts/queries.ts'
import type { BookingQueries } from '../booking/queries.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import { typedFact } from '../ledger/decider.ts'
import type { StoredFact } from '../ledger/ledger.ts'
import { toRupees } from '../money.ts'
import type { QueueQueries } from '../queue/queries.ts'
import type { SeatingQueries } from '../seating/queries.ts'
import type { CheckinReads, DashboardReads, KnownFact } from './pushes.ts'

/** Keys whose values never leave the server, wherever they appear in a fact. */
const secret = new Set(['passwordHash', 'tokenHash', 'secretHash', 'token', 'secret', 'signature'])

const redact = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(redact)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !secret.has(key))
        .map(([key, v]) => [key, redact(v)]),
    )
  }
  return value
}

/** An amount in paise as the feed shows it: ₹1,499 or ₹499.5 */
const rupees = (paise: number) => `₹${toRupees(paise).toLocaleString('en-IN')}`

/** the read models the live channels look facts up in (names, titles, counts) */
export type LiveReads = {
  accounts: AccountQueries
  catalog: CatalogQueries
  booking: BookingQueries
  dashboards: DashboardReads
  /** the door's summaries (issue 16), pushed to whoever follows an event's door */
  checkin?: CheckinReads
  /** the seats an order moved (issue 40), pushed to whoever shows the event's seat map */
  seating?: Pick<SeatingQueries, 'lastOfOrder' | 'plan'>
  /** the waiting rooms (issue 41): each person's place, pushed to them */
  queue?: Pick<QueueQueries, 'room' | 'place' | 'placesFrom' | 'placesIn' | 'inCheckout' | 'sold'>
}

export function activityShaper(reads: LiveReads) {
  const { accounts, catalog: events, booking } = reads
  const name = async (id: string | null | undefined) =>
    id ? ((await accounts.byId(id))?.username ?? 'someone') : 'someone'
  const title = async (eventId: string | undefined) =>
    eventId ? ((await events.byId(eventId))?.title ?? 'an event') : 'an event'
  const orderTitle = async (orderId: string) => title((await booking.byId(orderId))?.eventId)

  /** a user signs up; an organizer's or admin's account is made by an admin (or seeded) */
  const accountMade = async ({ username, role, createdBy }: AccountRegistered['data']): Promise<string> => {
    if (role === 'user') return `${username} signed up as a user`
    const kind = role === 'admin' ? 'an admin' : 'an organizer'
    return createdBy
      ? `${await name(createdBy)} created ${kind} account for ${username}`
      : `${username} signed up as ${kind}`
  }

  const summarize = async (stored: StoredFact): Promise<string> => {
    const fact = typedFact<KnownFact>(stored)
    switch (fact.type) {
      case 'AccountRegistered':
        return await accountMade(fact.data)
      case 'PasswordResetRequested':
        return `${await name(fact.data.accountId)} asked for a password reset link`
      case 'PasswordReset':
        return `${await name(fact.data.accountId)} reset their password`
      case 'EventSubmitted':
        return `${await name(fact.data.organizerId)} submitted “${fact.data.title}” for approval`
      case 'EventApproved':
        return `${await name(fact.data.by)} approved “${await title(fact.data.eventId)}”`
      case 'EventRejected':
        return `${await name(fact.data.by)} rejected “${await title(fact.data.eventId)}”`
      case 'TicketsHeld':
        return `${await name(fact.data.buyerId)} is paying for ${fact.data.quantity} × ${fact.data.ticketType} for “${await title(fact.data.eventId)}”`
      case 'PaymentCaptured':
        return `Payment of ${rupees(fact.data.amountPaise)} received for “${await orderTitle(fact.data.orderId)}”`
      case 'TicketsIssued':
        return `${await name(fact.data.ownerId)} booked ${fact.data.quantity} ticket${fact.data.quantity === 1 ? '' : 's'} for “${await title(fact.data.eventId)}”`
      case 'PaymentFailed':
        return fact.data.paymentId === null
          ? `An unpaid checkout for “${await orderTitle(fact.data.orderId)}” was given up; the seats are back on sale`
          : `A payment for “${await orderTitle(fact.data.orderId)}” failed; the seats are back on sale`
      case 'HoldExpired':
        return `An unpaid hold for “${await orderTitle(fact.data.orderId)}” expired; the seats are back on sale`
      case 'TicketCancelled':
        if (fact.data.refundedBy)
          return `${await name(fact.data.refundedBy.by)} refunded and cancelled ${await name(fact.data.ownerId)}'s ${fact.data.quantity} ticket${fact.data.quantity === 1 ? '' : 's'} for “${await title(fact.data.eventId)}”`
        return `${await name(fact.data.ownerId)} cancelled ${fact.data.quantity} ticket${fact.data.quantity === 1 ? '' : 's'} for “${await title(fact.data.eventId)}”`
      case 'TicketTransferred':
        return `${await name(fact.data.fromId)} transferred a ticket for “${await orderTitle(fact.data.orderId)}” to ${await name(fact.data.toId)}`
      case 'RefundRequested':
        return `A refund of ${rupees(fact.data.amountPaise)} was requested (${fact.data.reason})`
      case 'PaymentRefunded':
        return `A refund of ${rupees(fact.data.amountPaise)} was paid out`
      case 'SessionScheduled':
        return `“${fact.data.sessionTitle}” was scheduled for “${await title(fact.data.eventId)}”`
      case 'ScheduleNoticePosted':
        return `The attendees of “${await title(fact.data.eventId)}” were notified of a session`
      case 'InquiryOpened':
        return `${await name(fact.data.userId)} asked: “${fact.data.subject}”`
      case 'InquiryAnswered':
        return `${await name(fact.data.by)} answered ${await name(fact.data.userId)}'s inquiry`
      case 'DoorStaffAdded':
        return `${await name(fact.data.by)} made ${await name(fact.data.accountId)} door staff of “${await title(fact.data.eventId)}”`
      case 'DoorStaffInvited':
        return `${await name(fact.data.by)} invited ${fact.data.email} to the door staff of “${await title(fact.data.eventId)}”`
      case 'DoorStaffAccepted':
        return `${await name(fact.data.accountId)} joined the door staff of “${await title(fact.data.eventId)}”`
      case 'DoorStaffRemoved':
        if (fact.data.accountId === fact.data.by)
          return `${await name(fact.data.by)} left the door staff of “${await title(fact.data.eventId)}”`
        return fact.data.accountId
          ? `${await name(fact.data.by)} removed ${await name(fact.data.accountId)} from the door staff of “${await title(fact.data.eventId)}”`
          : `${await name(fact.data.by)} withdrew an invitation to the door staff of “${await title(fact.data.eventId)}”`
      case 'PassAdmitted':
        return `Admission ${fact.data.admission} of a ticket for “${await title(fact.data.eventId)}” was let in`
      case 'PassScanRefused':
        return `Admission ${fact.data.admission} of a ticket for “${await title(fact.data.eventId)}” was scanned again after it was let in (a double entry)`
      case 'PromoCodeCreated':
        return `${await name(fact.data.by)} made promo code ${fact.data.code} for “${await title(fact.data.eventId)}”`
      case 'PromoCodeDisabled':
        return `${await name(fact.data.by)} disabled promo code ${fact.data.code} of “${await title(fact.data.eventId)}”`
      case 'WaitlistJoined':
        return `${await name(fact.data.accountId)} joined the waiting list for ${fact.data.quantity} × ${fact.data.ticketType} of “${await title(fact.data.eventId)}”`
      case 'WaitlistLeft':
        return `${await name(fact.data.accountId)} left the waiting list of “${await title(fact.data.eventId)}”`
      case 'WaitlistOffered':
        return `${fact.data.quantity} seat${fact.data.quantity === 1 ? '' : 's'} of “${await title(fact.data.eventId)}” offered to ${await name(fact.data.accountId)} from the waiting list`
      case 'WaitlistOfferLapsed':
        return `${await name(fact.data.accountId)}'s offer for “${await title(fact.data.eventId)}” ran out; it passes on`
      case 'WaitlistServed':
        return `${await name(fact.data.accountId)} booked with their waiting-list offer for “${await title(fact.data.eventId)}”`
      case 'EventEdited':
        return `${await name(fact.data.by)} changed “${await title(fact.data.eventId)}”${
          fact.data.moved ? ' (its date, time or place: the holders are told)' : ''
        }`
      case 'SeatMapPlaced':
        return `${await name(fact.data.by)} saved the seat map of “${await title(fact.data.eventId)}”`
      case 'BillingProfileSet':
        return `${await name(fact.data.organizerId)} saved their billing profile`
      case 'BookingFeeSet':
        return `${await name(fact.meta.actor ?? 'system')} set the booking fee: ${feeSummary({ perTicket: toRupees(fact.data.perTicketPaise), percent: fact.data.percent, taxRate: fact.data.ratePercent })}`
      case 'InvoiceIssued':
        return `${fact.data.document.kind === 'tax-invoice' ? 'Tax invoice' : 'Bill of supply'} ${fact.data.number} issued to ${fact.data.document.buyer.name} for “${fact.data.document.event.title}”`
      case 'ApiTokenCreated':
        return `${await name(fact.data.accountId)} made an API token “${fact.data.name}” (${fact.data.scopes.join(', ')})`
      case 'ApiTokenRevoked':
        return `${await name(fact.data.by)} revoked an API token`
      case 'WebhookEndpointAdded':
        return `${await name(fact.data.organizerId)} added a webhook to ${fact.data.url} (${fact.data.kinds.join(', ')})`
      case 'WebhookEndpointRemoved':
        return `${await name(fact.data.by)} removed a webhook`
      case 'WebhookQueued':
        return `${fact.data.kind} queued for a webhook`
      case 'WebhookDelivered':
        return `A webhook delivery was answered ${fact.data.code} (attempt ${fact.data.attempts})`
      case 'WebhookAttemptFailed':
        return `A webhook delivery failed (attempt ${fact.data.attempts}${fact.data.code ? `, ${fact.data.code}` : ''})${
          fact.data.nextAt ? '' : ': given up'
        }`
      case 'WebhookEndpointDisabled':
        return `The webhook to ${fact.data.url} was turned off: ${fact.data.reason}`
      case 'WebhookEndpointTurnedOn':
        return `${await name(fact.data.by)} turned a webhook back on`
      case 'WebhookRetryAsked':
        return `${await name(fact.data.by)} asked a webhook delivery to be sent again`
      case 'CreditNoteIssued':
        return `Credit note ${fact.data.number} issued against ${fact.data.document.against} for “${fact.data.document.event.title}”`
      case 'OnSaleSet':
        return `“${await title(fact.data.eventId)}” goes on sale at ${fact.data.opensAt}${
          fact.data.waitingRoom ? ', behind a waiting room' : ''
        }`
      case 'QueueJoined':
        return `${await name(fact.data.accountId)} joined the line for “${await title(fact.data.eventId)}”${
          fact.data.early ? ' before the sale opened' : ''
        }`
      case 'QueueOpened':
        return `The sale of “${await title(fact.data.eventId)}” opened: ${fact.data.early} in the pre-queue took random places`
      case 'QueueAdmitted': {
        const n = fact.data.through - fact.data.from + 1
        return `${n} ${n === 1 ? 'person' : 'people'} admitted from the line for “${await title(fact.data.eventId)}”`
      }
      case 'QueuePaused':
        return `${await name(fact.data.by)} paused the line for “${await title(fact.data.eventId)}”`
      case 'QueueResumed':
        return `${await name(fact.data.by)} resumed the line for “${await title(fact.data.eventId)}”`
      case 'QueueClosed':
        return `“${await title(fact.data.eventId)}” sold out: its line closed`
      case 'EventCancelled':
        return `${await name(fact.data.by)} cancelled “${await title(fact.data.eventId)}”: ${fact.data.reason}`
      default:
        return (fact satisfies never) && ''
    }
  }

  return async (fact: StoredFact): Promise<ActivityItem> => ({
    kind: 'fact',
    position: fact.position,
    type: fact.type,
    stream: fact.stream,
    at: fact.at,
    actor: fact.meta.actor ?? null,
    summary: await summarize(fact),
    data: redact(fact.data) as Record<string, unknown>,
  })
}
