// The mails booking sends: confirmation, cancellation, transfer (texts only; sent by the mail queue).
import type { AccountQueries } from '../accounts/queries.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import type { Mail } from '../mail/mailer.ts'
import { toRupees } from '../money.ts'
import type { BookingQueries, OrderRow } from './queries.ts'

/** An amount in paise as the mail shows it: ₹1,499 or ₹499.50. */
const rupees = (paise: number) =>
  new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 2 }).format(
    toRupees(paise),
  )

export type BookingMails = ReturnType<typeof bookingMails>

export function bookingMails(parts: {
  accounts: AccountQueries
  catalog: CatalogQueries
  booking: BookingQueries
  publicUrl: string
}) {
  const { accounts, catalog: events, booking, publicUrl } = parts

  const context = async (orderId: string) => {
    const order = await booking.byId(orderId)
    const event = order && (await events.byId(order.eventId))
    return order && event ? { order, event } : null
  }
  const details = (
    order: OrderRow,
    event: { title: string; date: string; time: string; location: string },
  ) => [
    `Event: ${event.title}`,
    `When: ${event.date} at ${event.time}`,
    `Where: ${event.location}`,
    `Ticket: ${order.quantity} × ${order.ticketType}`,
    `Total: ${rupees(order.amountPaise)}`,
    `Ticket number: ${order.id}`,
  ]
  const to = (accountId: string) => accounts.byId(accountId)

  return {
    async issued(orderId: string): Promise<Mail | null> {
      const c = await context(orderId)
      const owner = c && (await to(c.order.ownerId ?? c.order.buyerId))
      if (!c || !owner) return null
      return {
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
      }
    },
    async cancelled(orderId: string, ownerId: string): Promise<Mail | null> {
      const c = await context(orderId)
      const owner = await to(ownerId)
      if (!c || !owner) return null
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
      ]
    },
  }
}
