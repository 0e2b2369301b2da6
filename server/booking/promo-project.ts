// Folds promo codes (issue 17) into promo_codes, on either store: the terms from the event's facts,
// and the uses from the orders' — a use is held with the order, turns paid when its ticket is
// issued, and is given back when the hold fails or lapses unpaid (a lapsed hold paid later takes
// its use again). Runs after booking's projection, whose orders row says which code an order used:
// a use moves by one statement that finds the order's code itself (an order without one moves
// nothing), so a sale costs no read here.
import { sql } from 'drizzle-orm'
import type { CatalogFact } from '../catalog/facts.ts'
import { type Sql, statement } from '../db/sql.ts'
import { readProjection } from '../ledger/read-projection.ts'
import type { BookingFact } from './facts.ts'
import { promoCodes } from './tables.ts'

/**
 * What the promo codes read of booking during SQLite's rebuild replay: the orders booking holds in
 * memory then (project.ts heldOrders), not yet written. None outside a replay.
 */
export type PromoReads = {
  heldOrder?: (id: string) => { eventId: string; promoCode: string | null } | undefined
}

const ignore = () => {}

const insert = statement<{
  eventId: string
  code: string
  percentOff: number | null
  amountOffPaise: number | null
  ticketTypeIds: string | null
  maxUses: number | null
  startsAt: string | null
  endsAt: string | null
  disabled: boolean
  at: string
}>(
  (
    p,
  ) => sql`INSERT INTO promo_codes (event_id, code, percent_off, amount_off_paise, ticket_type_ids, max_uses,
      starts_at, ends_at, disabled, held, paid, created_at)
    VALUES (${p.eventId}, ${p.code}, ${p.percentOff}, ${p.amountOffPaise}, ${p.ticketTypeIds}, ${p.maxUses},
      ${p.startsAt}, ${p.endsAt}, ${p.disabled}, 0, 0, ${p.at})`,
)

const disable = statement<{ eventId: string; code: string; disabled: boolean }>(
  (p) =>
    sql`UPDATE promo_codes SET disabled = ${p.disabled} WHERE event_id = ${p.eventId} AND code = ${p.code}`,
)

const uses = statement<{ eventId: string; code: string; held: number; paid: number }>(
  (p) => sql`UPDATE promo_codes SET held = promo_codes.held + ${p.held}, paid = promo_codes.paid + ${p.paid}
    WHERE event_id = ${p.eventId} AND code = ${p.code}`,
)

/** the uses of the code an order used, if any (the order's row, as booking's projection left it) */
const usesOfOrder = statement<{ orderId: string; held: number; paid: number }>(
  (p) => sql`UPDATE promo_codes SET held = promo_codes.held + ${p.held}, paid = promo_codes.paid + ${p.paid}
    FROM orders o
    WHERE o.id = ${p.orderId} AND o.promo_code IS NOT NULL
      AND promo_codes.event_id = o.event_id AND promo_codes.code = o.promo_code`,
)

/** the uses of the order's code move by `held` and `paid` (an order without a code: none) */
function move(x: Sql, reads: PromoReads | undefined, orderId: string, held: number, paid: number) {
  const replayed = reads?.heldOrder
  if (!replayed) return x.run(usesOfOrder, { orderId, held, paid })
  const order = replayed(orderId)
  if (order?.promoCode) return x.run(uses, { eventId: order.eventId, code: order.promoCode, held, paid })
}

export const promoProjection = readProjection<BookingFact | CatalogFact, PromoReads | undefined>({
  name: 'promo',
  tables: [promoCodes],
  after: ['booking'],
  handlers: {
    PromoCodeCreated(fact, x) {
      const d = fact.data
      return x.run(insert, {
        eventId: d.eventId,
        code: d.code,
        percentOff: d.percentOff,
        amountOffPaise: d.amountOffPaise,
        ticketTypeIds: d.ticketTypeIds == null ? null : JSON.stringify(d.ticketTypeIds),
        maxUses: d.maxUses,
        startsAt: d.startsAt,
        endsAt: d.endsAt,
        disabled: false,
        at: fact.at,
      })
    },
    PromoCodeDisabled(fact, x) {
      return x.run(disable, { eventId: fact.data.eventId, code: fact.data.code, disabled: true })
    },
    TicketsHeld(fact, x) {
      const d = fact.data
      if (d.promoCode) return x.run(uses, { eventId: d.eventId, code: d.promoCode, held: 1, paid: 0 })
    },
    // a live hold's use turns paid; a lapsed one's was given back, and is taken again
    TicketsIssued: (fact, x, reads) => move(x, reads, fact.data.orderId, fact.data.afterExpiry ? 0 : -1, 1),
    PaymentFailed: (fact, x, reads) => move(x, reads, fact.data.orderId, -1, 0),
    HoldExpired: (fact, x, reads) => move(x, reads, fact.data.orderId, -1, 0),
    EventSubmitted: ignore,
    EventApproved: ignore,
    EventRejected: ignore,
    EventEdited: ignore,
    SeatMapPlaced: ignore,
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
    InvoiceIssued: ignore,
    CreditNoteIssued: ignore,
  },
})
