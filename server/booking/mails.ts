// The mails booking sends: confirmation, cancellation, transfer (sent by the mail queue). The mails
// that give someone tickets (the confirmation, and the transfer's to the new holder) carry the
// ticket's passes (issue 16): an HTML part shows each as a QR code to scan at the door, drawn when
// the mail is sent (mail/mailer.ts); the text part links to the ticket page, which shows them too.
import { type SeatLabel, seatText } from '../../contracts/seating.ts'
import type { AccountQueries } from '../accounts/queries.ts'
import type { Series } from '../billing/documents.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import { type Mail, type MailPass, passImageId } from '../mail/mailer.ts'
import { rupeesText } from '../money.ts'
import type { SeatingQueries } from '../seating/queries.ts'
import type { RefundReason } from './facts.ts'
import type { BookingQueries, OrderRow } from './queries.ts'

/** An amount in paise as the mail shows it: ₹1,499 or ₹499.50. */
const rupees = rupeesText

export type BookingMails = ReturnType<typeof bookingMails>

/** the most passes one mail shows (a larger ticket's are all on its page) */
export const PASSES_PER_MAIL = 50

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** a seated pass's seat under its image (admission n is the order's n-th seat, as at the door) */
const caption = (seat: SeatLabel | undefined) => (seat ? ` · ${escapeHtml(seatText(seat))}` : '')

/** the mail's text as HTML paragraphs, then each pass as a QR code image */
function withPasses(
  mail: Mail,
  passes: MailPass[],
  ticketUrl: string,
  seats: readonly SeatLabel[] = [],
): Mail {
  if (passes.length === 0) return mail
  const shown = passes.slice(0, PASSES_PER_MAIL)
  const more = passes.length - shown.length
  const text = [
    mail.text,
    '',
    `Show a pass at the door for each person (${passes.length === 1 ? '1 pass' : `${passes.length} passes`}): ${ticketUrl}`,
  ].join('\n')
  const html = [
    ...mail.text.split('\n\n').map((paragraph) => `<p>${escapeHtml(paragraph).replaceAll('\n', '<br>')}</p>`),
    '<p>Show a pass at the door for each person:</p>',
    ...shown.map(
      (pass) =>
        `<p><img src="cid:${passImageId(pass.admission)}" alt="Pass for admission ${pass.admission}" width="240" height="240"><br>Admission ${pass.admission}${caption(seats[pass.admission - 1])}</p>`,
    ),
    more > 0 ? `<p>${more} more on your ticket page.</p>` : '',
    `<p><a href="${escapeHtml(ticketUrl)}">Your ticket and its passes</a></p>`,
  ].join('\n')
  return { ...mail, text, html, passes: shown }
}

type Where = { date: string; time: string; location: string }

/** To each holder of an event whose date, time or place changed (`was`: as it was before). */
export function movedMail(
  publicUrl: string,
  event: Where & { title: string },
  was: Where,
  holder: { username: string; email: string },
): Mail {
  const lines = (e: Where) => [`When: ${e.date} at ${e.time}`, `Where: ${e.location}`]
  return {
    to: holder.email,
    subject: `${event.title} has changed`,
    text: [
      `Hello ${holder.username},`,
      '',
      `The organizer of ${event.title} changed when or where it takes place. Your ticket stays valid.`,
      '',
      'Now:',
      ...lines(event),
      '',
      'Before:',
      ...lines(was),
      '',
      `Your tickets: ${publicUrl}/dashboard`,
    ].join('\n'),
  }
}

export function bookingMails(parts: {
  accounts: AccountQueries
  catalog: CatalogQueries
  booking: BookingQueries
  publicUrl: string
  /** the zone an offer's time is shown in */
  timeZone: string
  /** the valid passes of a ticket, with their codes (the door's views) */
  passesOf(order: OrderRow): Promise<MailPass[]>
  /** a seated ticket's seats (issue 40) */
  seating: Pick<SeatingQueries, 'labelsOf'>
}) {
  const { accounts, catalog: events, booking, publicUrl } = parts
  const ticketUrl = (orderId: string) => `${publicUrl}/ticket/${orderId}`

  /** an order and its event; its seats those it holds now, unless the seats it had are given */
  const context = async (orderId: string, seatsHad?: readonly SeatLabel[]) => {
    const [order, seatsOf] = await Promise.all([
      booking.byId(orderId),
      seatsHad ? null : parts.seating.labelsOf([orderId]),
    ])
    const seats = [...(seatsHad ?? seatsOf?.get(orderId) ?? [])]
    const event = order && (await events.byId(order.eventId))
    return order && event ? { order: { ...order, seats }, event } : null
  }
  const details = (
    order: OrderRow & { seats: SeatLabel[] },
    event: { title: string; date: string; time: string; location: string },
  ) => [
    `Event: ${event.title}`,
    `When: ${event.date} at ${event.time}`,
    `Where: ${event.location}`,
    `Ticket: ${order.quantity} × ${order.ticketType}`,
    ...(order.seats.length > 0 ? [`Seats: ${order.seats.map(seatText).join('; ')}`] : []),
    `Total: ${rupees(order.amountPaise)}`,
    `Ticket number: ${order.id}`,
  ]
  const to = (accountId: string) => accounts.byId(accountId)
  /**
   * an order's documents of one series, for the mail to its buyer (never a later holder's): read and
   * attached when the mail is sent (workers/mail.ts), so a queued mail holds only the order's id. A
   * free order has none.
   */
  const documentsFor = (order: OrderRow, ownerId: string, series: Series) =>
    ownerId === order.buyerId && order.amountPaise > 0 ? { documentsOf: { orderId: order.id, series } } : {}

  return {
    /**
     * To the account the ticket was issued to (`ownerId`, from the fact): the mail may be composed
     * after the ticket has moved on (a transfer decided before the mail queue reached this fact),
     * and then it confirms the booking without the passes, which are the new holder's now.
     */
    async issued(orderId: string, ownerId: string): Promise<Mail | null> {
      const c = await context(orderId)
      const owner = c && (await to(ownerId))
      if (!c || !owner) return null
      const stillHeld = (c.order.ownerId ?? c.order.buyerId) === ownerId
      const mail = {
        to: owner.email,
        subject: `Your tickets for ${c.event.title}`,
        text: [
          `Hello ${owner.username},`,
          '',
          'Your booking is confirmed.',
          '',
          ...details(c.order, c.event),
          '',
          `Your tickets: ${publicUrl}/dashboard`,
        ].join('\n'),
        ...documentsFor(c.order, ownerId, 'invoice'),
      }
      return stillHeld
        ? withPasses(mail, await parts.passesOf(c.order), ticketUrl(orderId), c.order.seats)
        : mail
    },
    /**
     * `seatsHad`: a seated ticket's seats, as its hold named them (the ledger's TicketsHeld): the
     * cancellation has freed them by the time this mail is composed, so the order holds none now.
     */
    async cancelled(
      orderId: string,
      ownerId: string,
      eventCancelled?: { reason: string },
      refundedBy?: { reason: string },
      seatsHad?: readonly SeatLabel[],
    ): Promise<Mail | null> {
      const c = await context(orderId, seatsHad)
      const owner = await to(ownerId)
      if (!c || !owner) return null
      const credit = documentsFor(c.order, ownerId, 'credit-note')
      if (refundedBy) {
        return {
          to: owner.email,
          subject: `Your ticket for ${c.event.title} is refunded`,
          text: [
            `Hello ${owner.username},`,
            '',
            `The organizer of ${c.event.title} cancelled your ticket and refunded it.`,
            refundedBy.reason ? `The reason given: ${refundedBy.reason}` : '',
            c.order.amountPaise > 0
              ? `A refund of ${rupees(c.order.amountPaise)} is on its way to your payment method.`
              : '',
            '',
            ...details(c.order, c.event),
          ].join('\n'),
          ...credit,
        }
      }
      if (eventCancelled) {
        return {
          to: owner.email,
          subject: `${c.event.title} is cancelled`,
          text: [
            `Hello ${owner.username},`,
            '',
            `${c.event.title} has been cancelled by its organizer, so your ticket is cancelled.`,
            eventCancelled.reason ? `The reason given: ${eventCancelled.reason}` : '',
            c.order.amountPaise > 0
              ? `A full refund of ${rupees(c.order.amountPaise)} is on its way to your payment method.`
              : '',
            '',
            ...details(c.order, c.event),
          ].join('\n'),
          ...credit,
        }
      }
      return {
        to: owner.email,
        subject: `Your ticket for ${c.event.title} is cancelled`,
        text: [
          `Hello ${owner.username},`,
          '',
          'Your ticket is cancelled and its seats are back on sale.',
          c.order.amountPaise > 0
            ? `A refund of ${rupees(c.order.amountPaise)} is on its way to your payment method.`
            : '',
          '',
          ...details(c.order, c.event),
        ].join('\n'),
        ...credit,
      }
    },
    /**
     * To the buyer of an order paid after its checkout was given up (closed, replaced, lapsed), whose
     * payment was refunded instead of issuing the ticket: the seats had sold out, or the order's
     * promo code could no longer be used (`promoRefusal` says why).
     */
    async lateRefund(
      orderId: string,
      refund: { amountPaise: number; reason: RefundReason; promoRefusal?: string },
    ): Promise<Mail | null> {
      const c = await context(orderId)
      const buyer = c && (await to(c.order.buyerId))
      if (!c || !buyer) return null
      const why =
        refund.reason === 'promo code no longer valid'
          ? `The promo code ${c.order.promoCode ?? ''} could no longer be used by then: ${refund.promoRefusal ?? ''} No ticket was issued at its price.`
          : 'The seats had sold out by then, so no ticket was issued.'
      return {
        to: buyer.email,
        subject: `Your payment for ${c.event.title} is refunded`,
        text: [
          `Hello ${buyer.username},`,
          '',
          `Your payment of ${rupees(refund.amountPaise)} for ${c.event.title} arrived after your checkout had closed.`,
          why,
          `The payment is refunded in full to your payment method.`,
          '',
          `Book again: ${publicUrl}/booking/${c.event.id}`,
        ].join('\n'),
      }
    },
    /** to the person a waiting list offers seats (issue 17) */
    async offered(offer: {
      eventId: string
      ticketTypeId: string
      accountId: string
      quantity: number
      offerUntil: string
    }): Promise<Mail | null> {
      const [person, event, type] = await Promise.all([
        to(offer.accountId),
        events.byId(offer.eventId),
        events.ticketType(offer.ticketTypeId),
      ])
      if (!person || !event) return null
      const until = new Date(offer.offerUntil).toLocaleString('en-IN', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: parts.timeZone,
      })
      return {
        to: person.email,
        subject: `Tickets for ${event.title} are held for you`,
        text: [
          `Hello ${person.username},`,
          '',
          `Seats came back for ${event.title}, and you are next on its waiting list.`,
          `${offer.quantity} × ${type?.type ?? 'ticket'} are held for you alone until ${until}.`,
          '',
          `Book them: ${publicUrl}/booking/${event.id}`,
          '',
          'If you do not book them by then, they are offered to the next person waiting.',
        ].join('\n'),
      }
    },
    async transferred(orderId: string, fromId: string, toId: string): Promise<Mail[]> {
      const c = await context(orderId)
      const from = await to(fromId)
      const recipient = await to(toId)
      if (!c || !from || !recipient) return []
      return [
        {
          to: from.email,
          subject: `You transferred your ticket for ${c.event.title}`,
          text: [
            `Hello ${from.username},`,
            '',
            `Your ticket now belongs to ${recipient.username} (${recipient.email}).`,
            '',
            ...details(c.order, c.event),
          ].join('\n'),
        },
        withPasses(
          {
            to: recipient.email,
            subject: `${from.username} sent you a ticket for ${c.event.title}`,
            text: [
              `Hello ${recipient.username},`,
              '',
              `${from.username} transferred a ticket to you.`,
              '',
              ...details(c.order, c.event),
              '',
              `Your tickets: ${publicUrl}/dashboard`,
            ].join('\n'),
          },
          await parts.passesOf(c.order),
          ticketUrl(orderId),
          c.order.seats,
        ),
      ]
    },
  }
}
