// promo-project.ts on PostgreSQL (issue 17): promo codes and their uses, in the append's
// transaction. A use is taken here with its hold; its later moves (paid, given back) ride on the
// order's own statement in booking's projection (pg-project.ts promoUses), so an order without a
// code costs nothing more.
import type { PgProjection } from '../ledger/pg-ledger.ts'

type Data = Record<string, unknown>
const data = (fact: { data: unknown }) => fact.data as Data

export const pgPromoProjection: PgProjection = {
  name: 'promo',
  after: ['booking'],
  handlers: {
    async PromoCodeCreated(fact, tx) {
      const d = data(fact)
      await tx.query(
        `INSERT INTO promo_codes (event_id, code, percent_off, amount_off_paise, ticket_type_ids, max_uses,
           starts_at, ends_at, disabled, held, paid, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, false, 0, 0, $9)`,
        [
          d.eventId,
          d.code,
          d.percentOff,
          d.amountOffPaise,
          d.ticketTypeIds === null ? null : JSON.stringify(d.ticketTypeIds),
          d.maxUses,
          d.startsAt,
          d.endsAt,
          fact.at,
        ],
      )
    },
    async PromoCodeDisabled(fact, tx) {
      const d = data(fact)
      await tx.query('UPDATE promo_codes SET disabled = true WHERE event_id = $1 AND code = $2', [
        d.eventId,
        d.code,
      ])
    },
    async TicketsHeld(fact, tx) {
      const d = data(fact)
      if (!d.promoCode) return
      await tx.query('UPDATE promo_codes SET held = held + 1 WHERE event_id = $1 AND code = $2', [
        d.eventId,
        d.promoCode,
      ])
    },
  },
}
