// Calls of the booking area (API.md /ticket/*, the local gateway's checkout).
import * as v from 'valibot'
import { Breakdown } from '../../../contracts/billing.ts'
import {
  CreateOrderReply,
  PaymentSuccessReply,
  type Registration,
  RegistrationList,
  TicketView,
} from '../../../contracts/booking.ts'
import { MessageReply } from '../../../contracts/common.ts'
import type { CheckoutPayment, Confirmation, Order, OrderRequest } from '../machines/booking.ts'
import { API_BASE, api } from './client.ts'

const path = (id: string) => encodeURIComponent(id)

/** what POST /ticket/create is sent: chosen seats name their own type and number (issue 40) */
export const orderBody = (request: OrderRequest) =>
  request.seats && request.seats.length > 0
    ? {
        eventId: request.eventId,
        seats: request.seats,
        ...(request.promoCode ? { promoCode: request.promoCode } : {}),
      }
    : request

/** the breakdown an order's reply carries beside its other fields (issue 42) */
const WithBreakdown = v.object({ breakdown: Breakdown })

export async function createOrder(request: OrderRequest): Promise<Order> {
  const reply = await api.post<unknown>('/ticket/create', orderBody(request))
  const order: Order = v.parse(CreateOrderReply, reply)
  const priced = v.safeParse(WithBreakdown, reply)
  return priced.success ? { ...order, breakdown: priced.output.breakdown } : order
}

/** The razorpay_* payload a successful checkout hands over. */
const CheckoutReply = v.pipe(
  v.object({
    razorpay_payment_id: v.string(),
    razorpay_order_id: v.string(),
    razorpay_signature: v.string(),
  }),
  v.transform(
    (reply): CheckoutPayment => ({
      paymentId: reply.razorpay_payment_id,
      orderId: reply.razorpay_order_id,
      signature: reply.razorpay_signature,
    }),
  ),
)

export const checkoutPaymentOf = (reply: unknown): CheckoutPayment => v.parse(CheckoutReply, reply)

/** The local test gateway's checkout: the payer pays or fails (a failure is a 402). */
export async function payLocally(orderId: string, outcome: 'success' | 'failure'): Promise<CheckoutPayment> {
  return checkoutPaymentOf(await api.post<unknown>('/payments/local/pay', { orderId, outcome }))
}

export async function fetchTicket(ticketId: string): Promise<TicketView> {
  return v.parse(TicketView, await api.get<unknown>(`/ticket/getTicketbyId/${path(ticketId)}`))
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Confirms a paid checkout. The server answers once the ticket is issued; when it is still being
 * issued (202, no ticket yet) the ticket is looked at until it is settled or a while has passed.
 */
export async function confirmPayment(
  input: { payment: CheckoutPayment; eventId: string; ticketId: string },
  options: { pollMs?: number; patienceMs?: number } = {},
): Promise<Confirmation> {
  const { payment, eventId, ticketId } = input
  const reply = v.parse(
    PaymentSuccessReply,
    await api.post<unknown>('/ticket/handlePaymentSuccess', {
      paymentId: payment.paymentId,
      orderId: payment.orderId,
      signature: payment.signature,
      event: eventId,
    }),
  )
  if (reply.ticket) return { status: 'issued', message: reply.message }
  const deadline = Date.now() + (options.patienceMs ?? 30_000)
  while (Date.now() < deadline) {
    await sleep(options.pollMs ?? 1000)
    const ticket = await fetchTicket(ticketId)
    if (ticket.paymentStatus === 'Completed') return { status: 'issued', message: reply.message }
    if (ticket.paymentStatus !== 'Pending') throw new Error(`The payment ended ${ticket.paymentStatus}.`)
  }
  return { status: 'pending', message: reply.message }
}

/** The caller's live tickets, then those cancelled while held (how each ended), with their events'
 * details (dashboard and registrations). */
export async function fetchRegistrations(): Promise<Registration[]> {
  return v.parse(RegistrationList, await api.get<unknown>('/ticket/registrations?include=cancelled'))
}

/** The dashboard's cancel, with the token of the account that asked (it may sign out meanwhile). */
export async function cancelTicket(ticketId: string, token?: string | null): Promise<string> {
  const reply = await api.delete<unknown>(`/ticket/cancel/${path(ticketId)}`, { token })
  return v.parse(MessageReply, reply).message
}

/**
 * The dashboard's cancel from a page that is going away: a keepalive request outlives the page
 * (its answer is never read, the dashboard learns the outcome from the ticket when it opens).
 */
export function cancelTicketOnLeave(ticketId: string, token: string | null): void {
  void fetch(`${API_BASE}/ticket/cancel/${path(ticketId)}`, {
    method: 'DELETE',
    keepalive: true,
    credentials: 'include',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  }).catch(() => {})
}

/** The registrations screen's cancel (same effect, the original's other path). */
export async function cancelRegistration(ticketId: string): Promise<string> {
  return v.parse(MessageReply, await api.delete<unknown>(`/ticket/${path(ticketId)}`)).message
}

export async function transferTicket(
  ticketId: string,
  newAttendeeEmail: string,
): Promise<{ message: string }> {
  return v.parse(MessageReply, await api.post<unknown>('/ticket/transfer', { ticketId, newAttendeeEmail }))
}
