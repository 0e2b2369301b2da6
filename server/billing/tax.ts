// The taxes of an order (issue 42), in integer paise: each line (a ticket type × quantity, or the
// booking fee) taxed on its own and each tax rounded half up on its line, so the lines always add up
// to the total. Prices may include tax (the tax is taken out of them) or not (it is added).
// Indian GST: the same state for supplier and place of supply is CGST + SGST at half the rate
// each; another state is IGST at the whole rate. No GSTIN: no tax at all (a bill of supply).

import type { Breakdown } from '../../contracts/billing.ts'
import { toRupees } from '../money.ts'

/** half up to a whole number of paise: n / d for integers, d > 0 */
const divideHalfUp = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d))

export type TaxLine = {
  /** what the line's tax is charged on (after any discount) */
  taxableValue: number
  cgst: number
  sgst: number
  igst: number
  total: number
}

export type LineTerms = {
  /** the line's price as charged: unit × quantity less any discount, in paise */
  amountPaise: number
  /** the GST rate in percent (0, 5, 12, 18, 28: the configured list) */
  ratePercent: number
  pricesIncludeTax: boolean
  /** supplier and place of supply in the same state */
  intraState: boolean
  /** whether the supplier charges GST at all (a GSTIN) */
  taxed: boolean
}

/** one line's taxable value and taxes; the rate is kept to hundredths of a percent */
export function taxLine(terms: LineTerms): TaxLine {
  const { amountPaise, pricesIncludeTax, intraState } = terms
  // the rate in basis points (18% → 1800): whole numbers all the way down
  const bp = terms.taxed ? Math.round(terms.ratePercent * 100) : 0
  if (bp === 0) return { taxableValue: amountPaise, cgst: 0, sgst: 0, igst: 0, total: amountPaise }
  if (intraState) {
    // CGST and SGST at half the rate each, each rounded on the line
    const each = pricesIncludeTax
      ? divideHalfUp(amountPaise * bp, 2 * (10_000 + bp))
      : divideHalfUp(amountPaise * bp, 2 * 10_000)
    const taxableValue = pricesIncludeTax ? amountPaise - 2 * each : amountPaise
    return { taxableValue, cgst: each, sgst: each, igst: 0, total: taxableValue + 2 * each }
  }
  if (pricesIncludeTax) {
    const igst = divideHalfUp(amountPaise * bp, 10_000 + bp)
    return { taxableValue: amountPaise - igst, cgst: 0, sgst: 0, igst, total: amountPaise }
  }
  const igst = divideHalfUp(amountPaise * bp, 10_000)
  return { taxableValue: amountPaise, cgst: 0, sgst: 0, igst, total: amountPaise + igst }
}

/** the platform's booking fee: per ticket (paise) or a percent of the tickets' price, and its GST */
export type FeeTerms = { perTicketPaise: number; percent: number; ratePercent: number }

/**
 * The fee charged now: as the platform's admins last set it, else as the deployment's settings
 * give it; null when it is nothing (no amount a ticket and no percent).
 */
export function feeCharged(set: FeeTerms | undefined, deployment: FeeTerms | null): FeeTerms | null {
  const fee = set ?? deployment
  if (!fee || (fee.perTicketPaise <= 0 && fee.percent <= 0)) return null
  return { perTicketPaise: fee.perTicketPaise, percent: fee.percent, ratePercent: fee.ratePercent }
}

export type OrderBreakdown = {
  tickets: TaxLine
  fee: TaxLine
  /** what the buyer pays: the tickets' total and the fee's */
  total: number
}

/**
 * An order's money: the tickets' line, and the fee's (charged on top, taxed by the platform at its
 * own rate, always as a supply from the platform to the buyer's place of supply).
 */
export function orderBreakdown(
  tickets: LineTerms & { quantity: number },
  fee: FeeTerms | null,
  feeIntraState: boolean,
  /** whether the fee's supplier charges GST on it (a GSTIN) */
  feeTaxed = true,
): OrderBreakdown {
  const line = taxLine(tickets)
  const feePaise = fee
    ? fee.perTicketPaise * tickets.quantity +
      divideHalfUp(tickets.amountPaise * Math.round(fee.percent * 100), 10_000)
    : 0
  const feeLine = taxLine({
    amountPaise: feePaise,
    ratePercent: fee?.ratePercent ?? 0,
    pricesIncludeTax: false,
    intraState: feeIntraState,
    taxed: feeTaxed && feePaise > 0,
  })
  return { tickets: line, fee: feeLine, total: line.total + feeLine.total }
}

/**
 * What an order was priced on (issue 42), kept with its hold: the ticket type's GST rate and whether
 * its price includes it, the supplier's state and GSTIN (none: no tax, a bill of supply) and the
 * place of supply (where the event is held). Absent: the organizer had no billing profile, so no
 * tax and no invoice.
 */
export type OrderTaxTerms = {
  ratePercent: number
  pricesIncludeTax: boolean
  supplierState: string
  placeOfSupply: string
  gstin: string | null
}

/** the platform's fee on an order, as charged, and who supplies it (the fee's own invoice) */
export type OrderFeeTerms = FeeTerms & { platformState: string; platformGstin: string | null }

/** the priced parts of an order (TicketsHeld's data) */
export type PricedOrder = {
  unitPricePaise: number
  quantity: number
  discountPaise?: number
  tax?: OrderTaxTerms
  fee?: OrderFeeTerms
}

/**
 * An order's money from its terms: the tickets (unit × quantity less the discount) taxed as the
 * terms say, and the platform's fee on a paid order. The hold's amount is its total.
 */
export function orderMoney(order: PricedOrder): OrderBreakdown {
  const amountPaise = order.unitPricePaise * order.quantity - (order.discountPaise ?? 0)
  const tax = order.tax
  const fee = order.fee && amountPaise > 0 ? order.fee : null
  return orderBreakdown(
    {
      amountPaise,
      quantity: order.quantity,
      ratePercent: tax?.ratePercent ?? 0,
      pricesIncludeTax: tax?.pricesIncludeTax ?? true,
      intraState: tax ? tax.supplierState === tax.placeOfSupply : true,
      taxed: tax?.gstin != null,
    },
    fee,
    // a fee to a buyer whose address is not known is supplied where the platform is (intra-state)
    true,
    fee ? fee.platformGstin !== null : false,
  )
}

/** An order's money as POST /ticket/create gives it (API.md): rupees, the fee's taxes as one. */
export const breakdownView = (money: OrderBreakdown): Breakdown => ({
  base: toRupees(money.tickets.taxableValue),
  cgst: toRupees(money.tickets.cgst),
  sgst: toRupees(money.tickets.sgst),
  igst: toRupees(money.tickets.igst),
  fee: toRupees(money.fee.taxableValue),
  feeTax: toRupees(money.fee.cgst + money.fee.sgst + money.fee.igst),
  total: toRupees(money.total),
})
