// Where the local test gateway keeps its orders, payments and refunds: a SQLite file of its own
// (local-gateway-sqlite.ts, one machine) or PostgreSQL (local-gateway-pg.ts, shared by every app
// process). Each step that could be taken twice at once (paying an order, refunding a payment) is
// one conditional write, so two processes can never both take it.
import type { GatewayPayment } from './port.ts'

export type GatewayOrderStatus = 'created' | 'attempted' | 'paid'
export type GatewayPaymentStatus = GatewayPayment['status']

export type OrderRow = {
  id: string
  /** paise */
  amount: number
  currency: string
  receipt: string
  /** the order's notes, as JSON */
  notes: string
  status: GatewayOrderStatus
  /** Unix seconds */
  createdAt: number
}

export type PaymentRow = {
  id: string
  orderId: string
  amount: number
  currency: string
  status: GatewayPaymentStatus
  method: string | null
  amountRefunded: number
  errorDescription: string | null
  createdAt: number
}

export type RefundRow = { id: string; paymentId: string; amount: number; createdAt: number }

export interface GatewayStore {
  addOrder(order: OrderRow): Promise<void>
  order(orderId: string): Promise<OrderRow | undefined>
  /**
   * Records a payment of its order and moves the order to `paid` (the payment captured) or
   * `attempted` (failed), in one step: false, and nothing recorded, when the order is paid already.
   */
  addPayment(payment: PaymentRow): Promise<boolean>
  payment(paymentId: string): Promise<PaymentRow | undefined>
  /** in the order they were made */
  paymentsOfOrder(orderId: string): Promise<PaymentRow[]>
  /**
   * Records a refund and adds it to its payment's refunded amount (the payment becomes `refunded`
   * once all of it is), in one step: false, and nothing recorded, when the payment is not captured
   * or the refund would take its refunded amount past what was paid.
   */
  addRefund(refund: RefundRow): Promise<boolean>
  /** in the order they were made */
  refundsOf(paymentId: string): Promise<Array<{ id: string; amount: number }>>
  /** Closes what the store opened itself (a pool handed to it stays open). */
  close(): void
}
