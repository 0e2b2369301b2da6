// Money is kept and added up in integer paise (facts, read models, analytics, the payment
// provider); rupees exist only at the API edge: prices and amounts in requests and replies.

/**
 * Rupees as a request gives them (at most two decimals, which API.md's prices allow) to paise.
 * A decimal like 19.99 has no exact binary form (19.99 × 100 is 1998.9999999999998), so the
 * product is rounded to the nearest paisa: exact for every amount with at most two decimals.
 */
export function toPaise(rupees: number): number {
  const paise = Math.round(rupees * 100)
  if (!Number.isSafeInteger(paise)) throw new RangeError(`${rupees} is not an amount of rupees`)
  return paise
}

/**
 * Paise to the rupee number a reply carries. An integer divided by 100 is the double nearest to
 * the decimal it names (the same number JSON.parse('499.5') gives), so 49950 answers 499.5 and
 * 1999 answers 19.99, never 19.990000000000002.
 */
export const toRupees = (paise: number): number => paise / 100

/** rupees as text, whole and with paise: made once (each new Intl.NumberFormat cost ~0.1 ms, and a
 * purchase writes a few amounts in its activity line, mails and messages) */
const rupeeFormats = [0, 2].map(
  (paiseDigits) =>
    new Intl.NumberFormat('en-IN', {
      style: 'currency',
      currency: 'INR',
      minimumFractionDigits: paiseDigits,
      maximumFractionDigits: 2,
    }),
)

/** An amount in paise as people read it (mails, messages): ₹1,499 or ₹499.50. */
export const rupeesText = (paise: number): string =>
  (rupeeFormats[paise % 100 === 0 ? 0 : 1] as Intl.NumberFormat).format(toRupees(paise))

/**
 * A rupee bound typed as text ('100', '99.5', '99.555') in paise, exactly, without going through
 * a binary fraction: 'up' gives the least whole paisa at or above it (a lower bound), 'down' the
 * greatest at or below it (an upper bound).
 */
export function paiseBound(text: string, toward: 'up' | 'down'): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim())
  if (!match) throw new RangeError(`${text} is not an amount of rupees`)
  const fraction = match[2] ?? ''
  const paise = Number(match[1]) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'))
  const rest = /[1-9]/.test(fraction.slice(2))
  return rest && toward === 'up' ? paise + 1 : paise
}

/** Upcasting: a rupee amount as an old fact holds it (written as Math.round(x × 100) / 100 or as
 * paise / 100, so always within a hair of a whole paisa) to its paise. */
export const paiseFromStoredRupees = (rupees: unknown): number => Math.round(Number(rupees) * 100)

/**
 * An amount shared among `count` parts (an order's admissions) in whole paise that add up to it
 * exactly: the first `amount mod count` parts carry the odd paise.
 */
export function sharesOf(paise: number, count: number): number[] {
  const base = Math.floor(paise / count)
  const odd = paise - base * count
  return Array.from({ length: count }, (_, i) => (i < odd ? base + 1 : base))
}

/** Paise as rupee text with both paise digits ('8.30'), for files read by spreadsheets and people. */
export function rupeesCell(paise: number): string {
  const whole = Math.abs(paise)
  return `${paise < 0 ? '-' : ''}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`
}
