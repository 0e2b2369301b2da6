// Analytics' projection on PostgreSQL (issue 15): the rows project.ts folds from booking's facts,
// written in the append's transaction. What a fact does not carry (an order's ticket type, amount,
// organizer) is read from booking's orders through booking's queries over that same transaction,
// which the booking projection has already brought up to date for this fact (it runs after it).
import type { BookingFact } from '../booking/facts.ts'
import type { BookingQueries } from '../booking/queries.ts'
import type { AsyncQueries } from '../db/store.ts'
import type { StoredFact } from '../ledger/ledger.ts'
import type { PgProjection, PgTx } from '../ledger/pg-ledger.ts'
import { SITE } from './project.ts'

type Handlers = {
  [T in BookingFact['type']]: (fact: StoredFact<Extract<BookingFact, { type: T }>>, tx: PgTx) => Promise<void>
}

/** reads an order as booking's read model has it, in the appending transaction */
export type PgOrderReader = (tx: PgTx) => Pick<AsyncQueries<BookingQueries>, 'byId'>

const hourOf = (at: string) => `${at.slice(0, 13)}:00:00.000Z`

/** Moves of the counts; revenue in integer paise. */
type Move = {
  pending?: number
  completed?: number
  failed?: number
  ticketsSold?: number
  revenuePaise?: number
}
const counts = (by: Move) => [
  by.pending ?? 0,
  by.completed ?? 0,
  by.failed ?? 0,
  by.ticketsSold ?? 0,
  by.revenuePaise ?? 0,
]

async function moveType(tx: PgTx, ticketTypeId: string, by: Move) {
  await tx.query(
    `UPDATE sales_by_ticket_type SET pending = pending + $2, completed = completed + $3,
       failed = failed + $4, tickets_sold = tickets_sold + $5, revenue_paise = revenue_paise + $6
     WHERE ticket_type_id = $1`,
    [ticketTypeId, ...counts(by)],
  )
}

async function moveEvent(tx: PgTx, eventId: string, by: Move & { attendees?: number }) {
  await tx.query(
    `UPDATE event_sales SET pending = pending + $2, completed = completed + $3, failed = failed + $4,
       tickets_sold = tickets_sold + $5, revenue_paise = revenue_paise + $6, attendees = attendees + $7
     WHERE event_id = $1`,
    [eventId, ...counts(by), by.attendees ?? 0],
  )
}

/** moves one person's seats; answers how the event's count of attendees moves (-1, 0, 1) */
async function attend(tx: PgTx, eventId: string, accountId: string, seats: number) {
  const [row] = await tx.query<{ tickets: number }>(
    `INSERT INTO attendance (event_id, account_id, tickets) VALUES ($1, $2, $3)
     ON CONFLICT (event_id, account_id) DO UPDATE SET tickets = attendance.tickets + excluded.tickets
     RETURNING tickets`,
    [eventId, accountId, seats],
  )
  const now = row?.tickets ?? 0
  return Number(now > 0) - Number(now - seats > 0)
}

/** an organizer's totals and the site's move together */
async function sold(tx: PgTx, organizerId: string, tickets: number, revenuePaise: number) {
  await tx.query(
    `INSERT INTO sales_totals (organizer_id, tickets_sold, revenue_paise) VALUES ($1, $3, $4), ($2, $3, $4)
     ON CONFLICT (organizer_id) DO UPDATE SET tickets_sold = sales_totals.tickets_sold + excluded.tickets_sold,
       revenue_paise = sales_totals.revenue_paise + excluded.revenue_paise`,
    [organizerId, SITE, tickets, revenuePaise],
  )
}

async function addToHour(tx: PgTx, eventId: string, at: string, tickets: number, revenuePaise: number) {
  await tx.query(
    `INSERT INTO sales_by_hour (event_id, hour, tickets, revenue_paise) VALUES ($1, $2, $3, $4)
     ON CONFLICT (event_id, hour) DO UPDATE SET tickets = sales_by_hour.tickets + excluded.tickets,
       revenue_paise = sales_by_hour.revenue_paise + excluded.revenue_paise`,
    [eventId, hourOf(at), tickets, revenuePaise],
  )
}

export const pgAnalyticsProjection = (ordersOf: PgOrderReader): PgProjection => {
  const orderOf = async (tx: PgTx, orderId: string) => {
    const order = await ordersOf(tx).byId(orderId)
    if (!order) throw new Error(`order ${orderId} is missing from the read model`)
    return order
  }
  // The order decider emits these only for a held order: it moves from Pending to Failed, or, a
  // checkout released unpaid (closed, replaced, lapsed: no payment failed), out of Pending alone.
  const unpaid = async (fact: { data: { orderId: string; released?: boolean } }, tx: PgTx) => {
    const order = await orderOf(tx, fact.data.orderId)
    const by = fact.data.released ? { pending: -1 } : { pending: -1, failed: 1 }
    await moveType(tx, order.ticketTypeId, by)
    await moveEvent(tx, order.eventId, by)
  }
  const ignore = async () => {}

  const handlers: Handlers = {
    async TicketsHeld(fact, tx) {
      const { ticketTypeId, eventId, ticketType, organizerId } = fact.data
      // A hold creates its ticket type's and its event's rows on first use (one pending more).
      await tx.query(
        `WITH t AS (
           INSERT INTO sales_by_ticket_type (ticket_type_id, event_id, ticket_type, pending, completed, failed,
             tickets_sold, revenue_paise) VALUES ($1, $2, $3, 1, 0, 0, 0, 0)
           ON CONFLICT (ticket_type_id) DO UPDATE SET pending = sales_by_ticket_type.pending + 1)
         INSERT INTO event_sales (event_id, organizer_id, pending, completed, failed, tickets_sold,
           revenue_paise, attendees) VALUES ($2, $4, 1, 0, 0, 0, 0, 0)
         ON CONFLICT (event_id) DO UPDATE SET pending = event_sales.pending + 1`,
        [ticketTypeId, eventId, ticketType, organizerId],
      )
    },
    async TicketsIssued(fact, tx) {
      const d = fact.data
      // A payment after the hold lapsed turns a Failed order (or one released, counted nowhere) into
      // a Completed one.
      const by = {
        ...(d.afterExpiry ? (d.fromReleased ? {} : { failed: -1 }) : { pending: -1 }),
        completed: 1,
        ticketsSold: d.quantity,
        revenuePaise: d.amountPaise,
      }
      await moveType(tx, d.ticketTypeId, by)
      await moveEvent(tx, d.eventId, { ...by, attendees: await attend(tx, d.eventId, d.ownerId, d.quantity) })
      await sold(tx, (await orderOf(tx, d.orderId)).organizerId, d.quantity, d.amountPaise)
      await addToHour(tx, d.eventId, fact.at, d.quantity, d.amountPaise)
    },
    PaymentFailed: unpaid,
    HoldExpired: unpaid,
    async TicketCancelled(fact, tx) {
      const order = await orderOf(tx, fact.data.orderId)
      const by = { completed: -1, ticketsSold: -order.quantity, revenuePaise: -order.amountPaise }
      await moveType(tx, order.ticketTypeId, by)
      const moved = await attend(tx, order.eventId, fact.data.ownerId, -order.quantity)
      await moveEvent(tx, order.eventId, { ...by, attendees: moved })
      await sold(tx, order.organizerId, -order.quantity, -order.amountPaise)
      await addToHour(tx, order.eventId, fact.at, -order.quantity, -order.amountPaise)
    },
    PaymentCaptured: ignore,
    async TicketTransferred(fact, tx) {
      const { eventId, quantity } = await orderOf(tx, fact.data.orderId)
      const moved =
        (await attend(tx, eventId, fact.data.fromId, -quantity)) +
        (await attend(tx, eventId, fact.data.toId, quantity))
      if (moved !== 0) await moveEvent(tx, eventId, { attendees: moved })
    },
    RefundRequested: ignore,
    PaymentRefunded: ignore,
    // admissions at the door are the check-in area's figures
    PassAdmitted: ignore,
    PassScanRefused: ignore,
  }

  return { name: 'analytics', after: ['booking'], handlers: handlers as PgProjection['handlers'] }
}
