// Facts as the activity feed shows them: no secrets, and one line a person can read.
import type { ActivityItem } from '../../contracts/activity.ts'
import type { AccountQueries } from '../accounts/queries.ts'
import type { BookingQueries } from '../booking/queries.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import { typedFact } from '../ledger/decider.ts'
import type { StoredFact } from '../ledger/ledger.ts'
import { toRupees } from '../money.ts'
import type { DashboardReads, KnownFact } from './pushes.ts'

/** Keys whose values never leave the server, wherever they appear in a fact. */
const secret = new Set(['passwordHash', 'tokenHash', 'token', 'secret', 'signature'])

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
}

export function activityShaper(reads: LiveReads) {
  const { accounts, catalog: events, booking } = reads
  const name = (id: string | null | undefined) =>
    id ? (accounts.byId(id)?.username ?? 'someone') : 'someone'
  const title = (eventId: string | undefined) =>
    eventId ? (events.byId(eventId)?.title ?? 'an event') : 'an event'
  const orderTitle = (orderId: string) => title(booking.byId(orderId)?.eventId)

  const summarize = (stored: StoredFact): string => {
    const fact = typedFact<KnownFact>(stored)
    switch (fact.type) {
      case 'AccountRegistered':
        return `${fact.data.username} signed up as ${fact.data.role}`
      case 'PasswordResetRequested':
        return `${name(fact.data.accountId)} asked for a password reset link`
      case 'PasswordReset':
        return `${name(fact.data.accountId)} reset their password`
      case 'EventSubmitted':
        return `${name(fact.data.organizerId)} submitted “${fact.data.title}” for approval`
      case 'EventApproved':
        return `${name(fact.data.by)} approved “${title(fact.data.eventId)}”`
      case 'EventRejected':
        return `${name(fact.data.by)} rejected “${title(fact.data.eventId)}”`
      case 'TicketsHeld':
        return `${name(fact.data.buyerId)} is paying for ${fact.data.quantity} × ${fact.data.ticketType} for “${title(fact.data.eventId)}”`
      case 'PaymentCaptured':
        return `Payment of ${rupees(fact.data.amountPaise)} received for “${orderTitle(fact.data.orderId)}”`
      case 'TicketsIssued':
        return `${name(fact.data.ownerId)} booked ${fact.data.quantity} ticket${fact.data.quantity === 1 ? '' : 's'} for “${title(fact.data.eventId)}”`
      case 'PaymentFailed':
        return `A payment for “${orderTitle(fact.data.orderId)}” failed; the seats are back on sale`
      case 'HoldExpired':
        return `An unpaid hold for “${orderTitle(fact.data.orderId)}” expired; the seats are back on sale`
      case 'TicketCancelled':
        return `${name(fact.data.ownerId)} cancelled ${fact.data.quantity} ticket${fact.data.quantity === 1 ? '' : 's'} for “${title(fact.data.eventId)}”`
      case 'TicketTransferred':
        return `${name(fact.data.fromId)} transferred a ticket for “${orderTitle(fact.data.orderId)}” to ${name(fact.data.toId)}`
      case 'RefundRequested':
        return `A refund of ${rupees(fact.data.amountPaise)} was requested (${fact.data.reason})`
      case 'PaymentRefunded':
        return `A refund of ${rupees(fact.data.amountPaise)} was paid out`
      case 'SessionScheduled':
        return `“${fact.data.sessionTitle}” was scheduled for “${title(fact.data.eventId)}”`
      case 'ScheduleNoticePosted':
        return `The attendees of “${title(fact.data.eventId)}” were notified of a session`
      case 'InquiryOpened':
        return `${name(fact.data.userId)} asked: “${fact.data.subject}”`
      case 'InquiryAnswered':
        return `${name(fact.data.by)} answered ${name(fact.data.userId)}'s inquiry`
      default:
        return (fact satisfies never) && ''
    }
  }

  return (fact: StoredFact): ActivityItem => ({
    kind: 'fact',
    position: fact.position,
    type: fact.type,
    stream: fact.stream,
    at: fact.at,
    actor: fact.meta.actor ?? null,
    summary: summarize(fact),
    data: redact(fact.data) as Record<string, unknown>,
  })
}
