// Orders, payments and tickets (API.md /ticket/*, the payment webhook and the local gateway).
import * as v from 'valibot'
import { Breakdown } from './billing.ts'
import { TicketTypeChoice } from './catalog.ts'
import { Id, PathParams } from './common.ts'
import { PromoCodeText } from './promo.ts'
import { SeatChoice, SeatLabel } from './seating.ts'

const Quantity = v.pipe(
  v.union(
    [v.number(), v.pipe(v.string(), v.trim(), v.regex(/^\d+$/), v.transform(Number))],
    'Quantity must be a number.',
  ),
  v.integer('Quantity must be a whole number.'),
  v.minValue(1, 'Quantity must be at least 1.'),
)

/**
 * A count of a ticket type (its name or _id, and a quantity; on a seated type the best seats), or
 * seats of one section by their ids (issue 40: the type is the section's, the quantity their number).
 */
export const CreateOrderBody = v.object({
  eventId: Id,
  /** the ticket type's name (General Admission, VIP) or its _id; with seats, the section's */
  ticketType: v.optional(TicketTypeChoice),
  quantity: v.optional(Quantity),
  seats: v.optional(SeatChoice),
  /** ignored: the price always comes from the event */
  amount: v.optional(v.unknown()),
  /** a promo code of the event (issue 17): the reply's amount is after its discount */
  promoCode: v.optional(PromoCodeText),
})
export type CreateOrderBody = v.InferInput<typeof CreateOrderBody>

export const CreateOrderReply = v.object({
  /** the provider's order id, for checkout */
  orderId: v.string(),
  /** paise */
  amount: v.number(),
  currency: v.literal('INR'),
  keyId: v.string(),
  provider: v.picklist(['local', 'razorpay', 'free']),
  /** our ticket's id (the order's id) */
  ticketId: v.string(),
  /** when the hold lapses */
  heldUntil: v.string(),
  /** a seated order's seats (issue 40) */
  seats: v.optional(v.array(SeatLabel)),
  /** the buyer's earlier unpaid holds for this event, released in favour of this one */
  replacedTicketIds: v.optional(v.array(v.string())),
  /** says so, when something was replaced */
  message: v.optional(v.string()),
  /** what the buyer pays, in rupees: the tickets' taxable value, each tax, the fee and its tax (issue 42) */
  breakdown: Breakdown,
})
export type CreateOrderReply = v.InferOutput<typeof CreateOrderReply>

const ProviderId = (label: string) =>
  v.pipe(v.string(`${label} is required.`), v.trim(), v.nonEmpty(`${label} is required.`), v.maxLength(100))

/** Accepts our names (API.md) or the checkout's own razorpay_* names. */
export const PaymentSuccessBody = v.pipe(
  v.object({
    paymentId: v.optional(v.string()),
    orderId: v.optional(v.string()),
    signature: v.optional(v.string()),
    razorpay_payment_id: v.optional(v.string()),
    razorpay_order_id: v.optional(v.string()),
    razorpay_signature: v.optional(v.string()),
    event: v.optional(v.unknown()),
  }),
  v.transform((b) => ({
    paymentId: b.paymentId ?? b.razorpay_payment_id,
    orderId: b.orderId ?? b.razorpay_order_id,
    signature: b.signature ?? b.razorpay_signature,
  })),
  v.object({
    paymentId: ProviderId('paymentId'),
    orderId: ProviderId('orderId'),
    signature: ProviderId('signature'),
  }),
)

export const TicketView = v.object({
  _id: v.string(),
  eventId: v.string(),
  userId: v.string(),
  ticketType: v.string(),
  quantity: v.number(),
  totalAmount: v.number(),
  paymentStatus: v.string(),
  /** a seated ticket's seats (issue 40) */
  seats: v.optional(v.array(SeatLabel)),
})
export type TicketView = v.InferOutput<typeof TicketView>

export const TicketList = v.array(TicketView)

/** POST /ticket/{ticketId}/refund: why the organizer refunds (told to the holder); optional */
export const RefundBody = v.optional(
  v.object({
    reason: v.optional(
      v.pipe(
        v.string('The reason must be text.'),
        v.trim(),
        v.maxLength(500, 'The reason is too long (500 characters at most).'),
      ),
    ),
  }),
  {},
)

/** GET /dashboard/events/{eventId}/attendees/{accountId}/tickets */
export const AttendeeTicketsParams = v.object({
  eventId: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Event not found.')),
  accountId: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Attendee not found.')),
})

export const PaymentSuccessReply = v.object({ message: v.string(), ticket: v.optional(TicketView) })

export const TicketParams = PathParams({
  ticketId: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Ticket not found.')),
})

export const TransferBody = v.object({
  ticketId: Id,
  newAttendeeEmail: v.pipe(
    v.string('Please enter a valid email.'),
    v.trim(),
    v.nonEmpty('Please enter a valid email.'),
    v.maxLength(254),
    v.email('Please enter a valid email.'),
    v.toLowerCase(),
  ),
})

/** The caller's tickets with what the dashboard and the registrations list show. */
export const Registration = v.object({
  _id: v.string(),
  eventId: v.string(),
  eventTitle: v.string(),
  eventDate: v.string(),
  eventTime: v.string(),
  eventLocation: v.string(),
  image: v.nullable(v.string()),
  ticketType: v.string(),
  quantity: v.number(),
  totalAmount: v.number(),
  paymentStatus: v.string(),
  /** a seated ticket's seats (issue 40) */
  seats: v.optional(v.array(SeatLabel)),
  /** cancelling (with its refund) is possible until this instant (ISO); null: no event date known */
  cancellableUntil: v.optional(v.nullable(v.string())),
  // A cancelled ticket (listed with ?include=cancelled) says how it ended; a live one has none of these.
  /** when it was cancelled (ISO) */
  cancelledAt: v.optional(v.string()),
  /** holder: its holder cancelled it; event: its event was called off; organizer: refunded by it */
  cancelledBy: v.optional(v.picklist(['holder', 'event', 'organizer'])),
  /** the organizer's reason, when its event was called off */
  cancelReason: v.optional(v.string()),
  /** rupees to go back to the payer (none for a free ticket) */
  refundAmount: v.optional(v.number()),
  /** when the refund was paid out (ISO); null while it is on its way */
  refundedAt: v.optional(v.nullable(v.string())),
  /** the bills the caller may download as the ticket's buyer (issue 42): its invoice (GET
   * /ticket/{id}/invoice), then its credit note (GET /ticket/{id}/credit-note); absent for a later
   * holder, a free ticket or one whose organizer issues no invoices */
  documents: v.optional(v.array(v.picklist(['invoice', 'credit-note']))),
})
export type Registration = v.InferOutput<typeof Registration>
export const RegistrationList = v.array(Registration)

/** GET /ticket/registrations: `include=cancelled` adds the tickets cancelled while the caller held
 * them, after the live ones (the latest cancelled first, at most CANCELLED_LISTED) */
export const RegistrationsQuery = v.object({ include: v.optional(v.picklist(['cancelled'])) })
export const CANCELLED_LISTED = 50

export const LocalPayBody = v.object({
  orderId: v.pipe(
    v.string('orderId is required.'),
    v.trim(),
    v.nonEmpty('orderId is required.'),
    v.maxLength(100),
  ),
  outcome: v.picklist(['success', 'failure'], 'outcome must be success or failure.'),
})
