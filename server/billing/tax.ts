// The taxes of an order (issue 42), in integer paise: each line (a ticket type × quantity, or the
// booking fee) taxed on its own and each tax rounded half up on its line, so the lines always add up
// to the total. Prices may include tax (the tax is taken out of them) or not (it is added).
// Indian GST: the same state for supplier and place of supply is CGST + SGST at half the rate
// each; another state is IGST at the whole rate. No GSTIN: no tax at all (a bill of supply).

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
    taxed: feePaise > 0,
  })
  return { tickets: line, fee: feeLine, total: line.total + feeLine.total }
}
