// GST as the billing area works it out (contracts/billing.ts, server/billing/tax.ts): a GSTIN's
// form, state and check character; each line's taxes in paise, rounded half up on the line, adding
// up to the total, CGST + SGST within a state and IGST across states, prices with tax in or on top,
// nothing without a GSTIN, and the booking fee with its own tax.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { BillingBody, gstinCheckCharacter, gstinProblem } from '../../contracts/billing.ts'
import { orderBreakdown, taxLine } from '../../server/billing/tax.ts'

describe('a GSTIN', () => {
  it('is accepted when its check character is right', () => {
    for (const g of ['27AAPFU0939F1ZV', '29AAGCB7383J1Z4', '24AAACC1206D1ZM']) {
      expect(gstinCheckCharacter(g.slice(0, 14))).toBe(g[14])
      expect(gstinProblem(g)).toBeNull()
    }
  })

  it('is refused, named with what is wrong: its form, its state, its check character', () => {
    expect(gstinProblem('27AAPFU0939F1Z')).toMatch(/^GSTIN 27AAPFU0939F1Z is not in the form/)
    expect(gstinProblem('27aapfu0939f1zv')).toMatch(/not in the form/)
    expect(gstinProblem('99AAPFU0939F1ZV')).toBe(
      "GSTIN 99AAPFU0939F1ZV starts with 99, which is no state's code.",
    )
    expect(gstinProblem('27AAPFU0939F1ZW')).toBe(
      'GSTIN 27AAPFU0939F1ZW has the wrong check character: it should end in V.',
    )
  })

  it('in a billing profile is taken in capitals, and must be of the profile’s state', () => {
    const body = { legalName: 'Rangmanch LLP', address: '1 MG Road, Pune', state: '27', invoicePrefix: 'rm' }
    const ok = v.safeParse(BillingBody, { ...body, gstin: '27aapfu0939f1zv' })
    expect(ok.success && ok.output).toMatchObject({ gstin: '27AAPFU0939F1ZV', invoicePrefix: 'RM' })
    const elsewhere = v.safeParse(BillingBody, { ...body, state: '29', gstin: '27AAPFU0939F1ZV' })
    expect(elsewhere.success).toBe(false)
    expect(elsewhere.issues?.[0]?.message).toBe(
      'GSTIN 27AAPFU0939F1ZV is registered in state 27, not in the state given (29).',
    )
    // no state chosen: that is said of the state alone, not blamed on the GSTIN
    const noState = v.safeParse(BillingBody, { ...body, state: '', gstin: '27AAPFU0939F1ZV' })
    expect(noState.issues?.map((issue) => [v.getDotPath(issue), issue.message])).toEqual([
      ['state', 'State must be a two-digit GST state code (27 for Maharashtra).'],
    ])
    expect(v.safeParse(BillingBody, { ...body, gstin: '' }).success).toBe(true)
    expect(v.safeParse(BillingBody, { ...body, state: '28' }).success).toBe(false)
    expect(v.safeParse(BillingBody, { ...body, invoicePrefix: 'TOOLONG' }).success).toBe(false)
  })
})

const line = (amountPaise: number, change: Partial<Parameters<typeof taxLine>[0]> = {}) =>
  taxLine({ amountPaise, ratePercent: 18, pricesIncludeTax: false, intraState: true, taxed: true, ...change })

describe('a line’s taxes', () => {
  it('within a state: CGST and SGST at half the rate each, on top of the price', () => {
    expect(line(100_000)).toEqual({ taxableValue: 100_000, cgst: 9000, sgst: 9000, igst: 0, total: 118_000 })
  })

  it('across states: IGST at the whole rate', () => {
    expect(line(100_000, { intraState: false })).toEqual({
      taxableValue: 100_000,
      cgst: 0,
      sgst: 0,
      igst: 18_000,
      total: 118_000,
    })
  })

  it('taken out of a price that includes them, the line adding up to the price', () => {
    // ₹1,500 with 18% in: 150000 × 9 / 118 = 11440.68 → 11441 each half
    expect(line(150_000, { pricesIncludeTax: true })).toEqual({
      taxableValue: 127_118,
      cgst: 11_441,
      sgst: 11_441,
      igst: 0,
      total: 150_000,
    })
    expect(line(150_000, { pricesIncludeTax: true, intraState: false })).toEqual({
      taxableValue: 127_119,
      cgst: 0,
      sgst: 0,
      igst: 22_881,
      total: 150_000,
    })
  })

  it('rounds half up on the line: 5% of ₹0.50 is 2.5 paise, taken as 3', () => {
    expect(line(50, { ratePercent: 5, intraState: false }).igst).toBe(3)
    expect(line(50, { ratePercent: 5 }).cgst).toBe(1) // 1.25 each half
  })

  it('is none without a GSTIN, or at a rate of 0', () => {
    expect(line(100_000, { taxed: false })).toEqual({
      taxableValue: 100_000,
      cgst: 0,
      sgst: 0,
      igst: 0,
      total: 100_000,
    })
    expect(line(100_000, { ratePercent: 0 }).total).toBe(100_000)
  })

  it('always adds up: taxable value and taxes make the total, for any amount and rate', () => {
    for (let amount = 1; amount < 5000; amount += 37)
      for (const ratePercent of [5, 12, 18, 28])
        for (const pricesIncludeTax of [true, false])
          for (const intraState of [true, false]) {
            const l = line(amount, { ratePercent, pricesIncludeTax, intraState })
            expect(l.taxableValue + l.cgst + l.sgst + l.igst).toBe(l.total)
            if (pricesIncludeTax) expect(l.total).toBe(amount)
          }
  })
})

describe('an order with a booking fee', () => {
  it('charges the fee per ticket and as a percent on top, with its own tax', () => {
    const order = orderBreakdown(
      {
        amountPaise: 200_000,
        quantity: 2,
        ratePercent: 18,
        pricesIncludeTax: true,
        intraState: true,
        taxed: true,
      },
      { perTicketPaise: 1000, percent: 2, ratePercent: 18 },
      false,
    )
    expect(order.fee).toEqual({ taxableValue: 6000, cgst: 0, sgst: 0, igst: 1080, total: 7080 })
    expect(order.total).toBe(200_000 + 7080)
  })
})
