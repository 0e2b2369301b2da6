// Folds promo codes (issue 17) into promo_codes: the terms from the event's facts, and the uses
// from the orders' — a use is held with the order, turns paid when its ticket is issued, and is
// given back when the hold fails or lapses unpaid (a lapsed hold paid later takes its use again).
// Runs after booking's projection, whose orders row says which code an order used.
import { and, eq, sql } from 'drizzle-orm'
import type { CatalogFact } from '../catalog/facts.ts'
import { ordersTable as orders, promoCodesTable as promoCodes } from '../db/sqlite-read-models.ts'
import { projection } from '../ledger/ledger.ts'
import type { BookingFact } from './facts.ts'
import { heldOrders } from './project.ts'

const p = sql.placeholder
const ignore = () => {}

export const promoProjection = projection<BookingFact | CatalogFact>({
  name: 'promo',
  tables: [promoCodes],
  after: ['booking'],
  handlers(db, replaying) {
    const insert = db
      .insert(promoCodes)
      .values({
        eventId: p('eventId'),
        code: p('code'),
        percentOff: p('percentOff'),
        amountOffPaise: p('amountOffPaise'),
        ticketTypeIds: p('ticketTypeIds'),
        maxUses: p('maxUses'),
        startsAt: p('startsAt'),
        endsAt: p('endsAt'),
        disabled: false,
        held: 0,
        paid: 0,
        createdAt: p('at'),
      })
      .prepare()
    const disable = db
      .update(promoCodes)
      .set({ disabled: true })
      .where(and(eq(promoCodes.eventId, p('eventId')), eq(promoCodes.code, p('code'))))
      .prepare()
    const uses = db
      .update(promoCodes)
      .set({ held: sql`${promoCodes.held} + ${p('held')}`, paid: sql`${promoCodes.paid} + ${p('paid')}` })
      .where(and(eq(promoCodes.eventId, p('eventId')), eq(promoCodes.code, p('code'))))
      .prepare()
    const promoOf = db
      .select({ eventId: orders.eventId, promoCode: orders.promoCode })
      .from(orders)
      .where(eq(orders.id, p('id')))
      .prepare()
    // during a rebuild's replay, booking holds the orders in memory
    const replayed = heldOrders(replaying)
    /** the uses of the order's code move by `held` and `paid` (an order without a code: none) */
    const move = (orderId: string, held: number, paid: number) => {
      const order = replayed ? replayed(orderId) : promoOf.get({ id: orderId })
      if (order?.promoCode) uses.run({ eventId: order.eventId, code: order.promoCode, held, paid })
    }

    return {
      PromoCodeCreated(fact) {
        const d = fact.data
        insert.run({
          eventId: d.eventId,
          code: d.code,
          percentOff: d.percentOff,
          amountOffPaise: d.amountOffPaise,
          ticketTypeIds: d.ticketTypeIds,
          maxUses: d.maxUses,
          startsAt: d.startsAt,
          endsAt: d.endsAt,
          at: fact.at,
        })
      },
      PromoCodeDisabled(fact) {
        disable.run({ eventId: fact.data.eventId, code: fact.data.code })
      },
      TicketsHeld(fact) {
        const d = fact.data
        if (d.promoCode) uses.run({ eventId: d.eventId, code: d.promoCode, held: 1, paid: 0 })
      },
      TicketsIssued(fact) {
        // a live hold's use turns paid; a lapsed one's was given back, and is taken again
        move(fact.data.orderId, fact.data.afterExpiry ? 0 : -1, 1)
      },
      PaymentFailed(fact) {
        move(fact.data.orderId, -1, 0)
      },
      HoldExpired(fact) {
        move(fact.data.orderId, -1, 0)
      },
      EventSubmitted: ignore,
      EventApproved: ignore,
      EventRejected: ignore,
      EventEdited: ignore,
      EventCancelled: ignore,
      DoorStaffAdded: ignore,
      DoorStaffInvited: ignore,
      DoorStaffAccepted: ignore,
      DoorStaffRemoved: ignore,
      PaymentCaptured: ignore,
      TicketCancelled: ignore,
      TicketTransferred: ignore,
      RefundRequested: ignore,
      PaymentRefunded: ignore,
      PassAdmitted: ignore,
      PassScanRefused: ignore,
    }
  },
})
