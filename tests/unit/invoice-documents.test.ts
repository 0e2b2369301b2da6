// An order's documents (server/billing/documents.ts, issue 42), pure: the financial year (April to
// March) and the numbers, at most 16 characters, invoices and credit notes in series of their own;
// an order's money from its terms (the hold's amount); the tickets' invoice or bill of supply, the
// fee's own, and a credit note against an invoice; each document's lines add up to its totals.
import { describe, expect, it } from 'vitest'
import {
  creditNote,
  documentNumber,
  documentView,
  feeInvoice,
  financialYear,
  ticketsInvoice,
} from '../../server/billing/documents.ts'
import { orderMoney } from '../../server/billing/tax.ts'

const parties = {
  supplier: { legalName: 'Rangmanch LLP', gstin: '27AAPFU0939F1ZV', address: 'Pune', state: '27' },
  buyer: { name: 'Asha', email: 'asha@example.com' },
  event: { _id: 'e1', title: 'Kabini Jazz', date: '2027-03-15' },
}

describe('numbers', () => {
  it('run per financial year, April to March', () => {
    expect(financialYear('2026-04-01')).toBe('2627')
    expect(financialYear('2027-03-31')).toBe('2627')
    expect(financialYear('2027-04-01')).toBe('2728')
    expect(financialYear('2099-12-31')).toBe('9900')
  })

  it('name the series, and fit in 16 characters with the longest prefix', () => {
    expect(documentNumber('INV', '2627', 'invoice', 42)).toBe('INV2627/000042')
    expect(documentNumber('INV', '2627', 'credit-note', 3)).toBe('INV2627C000003')
    // a long prefix and a series past a million a year: still at most 16 characters
    expect(documentNumber('ABCDE', '2627', 'invoice', 999_999)).toBe('ABCDE2627/999999')
    expect(documentNumber('ABCDE', '2627', 'invoice', 1_000_000)).toBe('ABCDE27/1000000')
    expect(documentNumber('ABCDE', '2627', 'credit-note', 99_999_999)).toBe('ABCDE27C99999999')
    for (const seq of [1, 999_999, 1_000_000, 12_345_678, 99_999_999])
      for (const series of ['invoice', 'credit-note'] as const)
        expect(documentNumber('ABCDE', '2627', series, seq).length).toBeLessThanOrEqual(16)
    expect(documentNumber('ABCDE', '2627', 'invoice', 999_999)).toHaveLength(16)
  })
})

describe('an order’s money', () => {
  it('adds tax to prices without it and takes it out of prices with it, and adds the fee on a paid order', () => {
    const tax = {
      ratePercent: 18,
      pricesIncludeTax: false,
      supplierState: '27',
      placeOfSupply: '27',
      gstin: 'G',
    }
    expect(orderMoney({ unitPricePaise: 100_000, quantity: 2, tax }).total).toBe(236_000)
    const inclusive = orderMoney({
      unitPricePaise: 118_000,
      quantity: 1,
      tax: { ...tax, pricesIncludeTax: true, placeOfSupply: '29' },
    })
    expect(inclusive.tickets).toEqual({
      taxableValue: 100_000,
      cgst: 0,
      sgst: 0,
      igst: 18_000,
      total: 118_000,
    })
    const fee = {
      perTicketPaise: 2_000,
      percent: 1,
      ratePercent: 18,
      platformState: '29',
      platformGstin: 'P',
    }
    const withFee = orderMoney({ unitPricePaise: 100_000, quantity: 2, discountPaise: 20_000, tax, fee })
    // the fee: ₹20 a ticket and 1% of ₹1,800, taxed at 18% where the platform is (half and half)
    expect(withFee.fee).toEqual({ taxableValue: 5_800, cgst: 522, sgst: 522, igst: 0, total: 6_844 })
    expect(withFee.total).toBe(withFee.tickets.total + withFee.fee.total)
    expect(orderMoney({ unitPricePaise: 0, quantity: 2, fee }).total).toBe(0)
    // no GSTIN: no tax, whatever the rate
    expect(orderMoney({ unitPricePaise: 100_000, quantity: 1, tax: { ...tax, gstin: null } }).total).toBe(
      100_000,
    )
  })
})

describe('documents', () => {
  const order = {
    orderId: 'o1',
    ticketType: 'VIP',
    unitPricePaise: 33_333,
    quantity: 3,
    tax: { ratePercent: 18, pricesIncludeTax: false, supplierState: '27', placeOfSupply: '27', gstin: 'G' },
    fee: { perTicketPaise: 1_000, percent: 0, ratePercent: 18, platformState: '29', platformGstin: null },
  }

  it('are a tax invoice with a GSTIN and tax, a bill of supply without; lines add up to the totals', () => {
    const invoice = ticketsInvoice(order, parties, '2026-12-02', 'RM2627/000001')
    expect(invoice.kind).toBe('tax-invoice')
    expect(invoice.lines[0]).toMatchObject(invoice.totals)
    const { taxableValue, cgst, sgst, igst, total } = invoice.totals
    expect(taxableValue + cgst + sgst + igst).toBe(total)
    expect(invoice.lines[0]?.description).toBe('VIP: Kabini Jazz, 2027-03-15')
    const bill = ticketsInvoice({ ...order, tax: { ...order.tax, gstin: null } }, parties, '2026-12-02', 'X')
    expect([bill.kind, bill.totals.cgst + bill.totals.sgst]).toEqual(['bill-of-supply', 0])
    // the platform has no GSTIN here: its fee is a bill of supply of its own
    const fee = feeInvoice(
      order,
      { ...parties, supplier: { ...parties.supplier, gstin: null, state: '29' } },
      '2026-12-02',
      'FEE2627/000001',
    )
    expect(fee).toMatchObject({ kind: 'bill-of-supply', placeOfSupply: '29', totals: { total: 3_000 } })
    expect(feeInvoice({ ...order, fee: undefined }, parties, '2026-12-02', 'X')).toBeNull()
  })

  it('credit the whole invoice, naming it, and read in rupees', () => {
    const invoice = ticketsInvoice(order, parties, '2026-12-02', 'RM2627/000001')
    const note = creditNote(invoice, '2027-01-05', 'RM2627C000001')
    expect(note).toMatchObject({
      kind: 'credit-note',
      number: 'RM2627C000001',
      against: 'RM2627/000001',
      date: '2027-01-05',
    })
    expect(note.totals).toEqual(invoice.totals)
    expect(documentView(note).totals).toEqual({
      taxableValue: 999.99,
      cgst: 90,
      sgst: 90,
      igst: 0,
      total: 1179.99,
    })
  })
})
