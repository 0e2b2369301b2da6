// A promo code's rules (issue 17), pure: whether an order may use it, and what it takes off. The
// hold decides with them against the code's terms and uses read inside its own transaction, so
// concurrent orders can never use a code more often than its maxUses.
import type { Throttle } from '../accounts/throttle.ts'
import { invalid } from '../errors.ts'
import { toRupees } from '../money.ts'

/** a code as the hold reads it: its terms and how often it is in use */
export type PromoTerms = {
  code: string
  percentOff: number | null
  amountOffPaise: number | null
  /** null: every ticket type of the event */
  ticketTypeIds: readonly string[] | null
  maxUses: number | null
  startsAt: string | null
  endsAt: string | null
  disabled: boolean
  /** orders holding it unpaid, and paid */
  held: number
  paid: number
}

export const PROMO_UNKNOWN = 'This promo code does not exist for this event.'
export const PROMO_DISABLED = 'This promo code has been disabled.'
export const PROMO_NOT_YET = 'This promo code is not valid yet.'
export const PROMO_EXPIRED = 'This promo code has expired.'
export const PROMO_USED_UP = 'This promo code has been used up.'
export const PROMO_WRONG_TYPE = 'This promo code is not valid for this ticket type.'

/** why `terms` may not be used for an order of `ticketTypeId` at `now`, or null when it may */
export function promoRefusal(terms: PromoTerms | null, ticketTypeId: string, now: string): string | null {
  if (!terms) return PROMO_UNKNOWN
  if (terms.disabled) return PROMO_DISABLED
  if (terms.startsAt && now < terms.startsAt) return PROMO_NOT_YET
  if (terms.endsAt && now >= terms.endsAt) return PROMO_EXPIRED
  if (terms.ticketTypeIds && !terms.ticketTypeIds.includes(ticketTypeId)) return PROMO_WRONG_TYPE
  if (terms.maxUses !== null && terms.held + terms.paid >= terms.maxUses) return PROMO_USED_UP
  return null
}

/**
 * What a code takes off an order of `quantity` seats at `unitPricePaise`: a share of the whole,
 * rounded to the paisa, or an amount off each seat; never more than the order.
 */
export function discountPaise(
  terms: Pick<PromoTerms, 'percentOff' | 'amountOffPaise'>,
  unitPricePaise: number,
  quantity: number,
): number {
  const whole = unitPricePaise * quantity
  if (terms.percentOff !== null) return Math.min(whole, Math.round((whole * terms.percentOff) / 100))
  if (terms.amountOffPaise !== null) return Math.min(whole, terms.amountOffPaise * quantity)
  return 0
}

/** the view's amountOff in rupees */
export const amountOffRupees = (terms: Pick<PromoTerms, 'amountOffPaise'>) =>
  terms.amountOffPaise === null ? null : toRupees(terms.amountOffPaise)

/**
 * A code's terms for an order of `ticketTypeId`, or its refusal (400, saying which): what the
 * checkout and the booking screen's price check both ask. An account that keeps trying codes that
 * do not exist is refused (429) before the code is looked up, so codes cannot be guessed.
 */
export async function promoTermsFor(
  throttle: Pick<Throttle, 'beforePromo' | 'promoFound'>,
  /** booking's read of a code's terms and uses (queries.ts's promoCode) */
  booking: { promoCode(eventId: string, code: string): Promise<PromoTerms | null> },
  accountId: string,
  eventId: string,
  code: string,
  ticketTypeId: string,
): Promise<PromoTerms> {
  // counted as a guess before the lookup (tries arriving at once cannot all slip under the limit),
  // and given back when the code exists
  await throttle.beforePromo(accountId)
  const terms = await booking.promoCode(eventId, code)
  if (terms) await throttle.promoFound(accountId)
  const refusal = promoRefusal(terms, ticketTypeId, new Date().toISOString())
  if (refusal || !terms) {
    const message = refusal ?? PROMO_UNKNOWN
    throw invalid(message, [{ field: 'promoCode', message }])
  }
  return terms
}
