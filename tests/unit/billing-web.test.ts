// What the web app works out for taxes and invoices (web/src): the lines of an order's breakdown at
// the checkout, the bills a ticket's card offers, the GST rule of the event form, the Invoices
// screen's default days and totals, and states as forms name them.
import { describe, expect, it } from 'vitest'
import type { InvoiceDocument } from '../../contracts/billing.ts'
import {
  isRange,
  registerTotals,
  signedMoney,
  thisMonth,
} from '../../web/src/screens/billing/invoice-register.ts'
import { breakdownAddsUp, breakdownRows } from '../../web/src/screens/booking/order-breakdown.ts'
import { documentsOf } from '../../web/src/screens/booking/ticket-documents.ts'
import { STATE_NEEDED, taxProblems } from '../../web/src/screens/catalog/new-event-check.ts'
import { stateChoices, stateLabel } from '../../web/src/ui/gst-states.ts'
import { formatAmount, paiseOf } from '../../web/src/ui/money.ts'

describe("an order's breakdown at the checkout", () => {
  it('lists the price before GST, CGST and SGST within a state, and the total, leaving out what is nothing', () => {
    const rows = breakdownRows({ base: 1000, cgst: 90, sgst: 90, igst: 0, fee: 0, feeTax: 0, total: 1180 })
    expect(rows).toEqual([
      { label: 'Price before GST', amount: 1000 },
      { label: 'CGST', amount: 90 },
      { label: 'SGST', amount: 90 },
      { label: 'Total', amount: 1180, total: true },
    ])
  })

  it('lists IGST across states, and the booking fee with its GST when the platform charges one', () => {
    const rows = breakdownRows({ base: 500, cgst: 0, sgst: 0, igst: 90, fee: 20, feeTax: 3.6, total: 613.6 })
    expect(rows.map((row) => row.label)).toEqual([
      'Price before GST',
      'IGST',
      'Booking fee',
      'GST on fee',
      'Total',
    ])
    // a fee on an untaxed price: the price is the price
    const untaxed = breakdownRows({
      base: 500,
      cgst: 0,
      sgst: 0,
      igst: 0,
      fee: 20,
      feeTax: 3.6,
      total: 523.6,
    })
    expect(untaxed.map((row) => row.label)).toEqual(['Price', 'Booking fee', 'GST on fee', 'Total'])
  })

  it('shows the price and the total alone when nothing is taxed', () => {
    const rows = breakdownRows({ base: 250, cgst: 0, sgst: 0, igst: 0, fee: 0, feeTax: 0, total: 250 })
    expect(rows.map((row) => row.label)).toEqual(['Price', 'Total'])
  })

  it('writes money in rupees to the paisa, grouped the Indian way', () => {
    expect(formatAmount(1180)).toBe('₹1,180.00')
    expect(formatAmount(123456.5)).toBe('₹1,23,456.50')
    expect(formatAmount(0.1 + 0.2)).toBe('₹0.30')
  })
})

describe("a ticket's bills", () => {
  it('are those the server lists for its buyer, in its order', () => {
    expect(documentsOf({ documents: ['invoice'] })).toEqual(['invoice'])
    expect(documentsOf({ documents: ['invoice', 'credit-note'] })).toEqual(['invoice', 'credit-note'])
  })

  it('none when the server lists none, or says nothing of them', () => {
    expect(documentsOf({ documents: [] })).toEqual([])
    expect(documentsOf({})).toEqual([])
  })
})

describe("the event form's GST fields", () => {
  const row = (taxRate: string) => ({ key: 'k', type: 'VIP', price: '100', quantity: '1', taxRate })

  it('a ticket type with GST needs the state where the event is held', () => {
    expect(taxProblems({ state: '', ticketTypes: [row('0'), row('18')] })).toEqual({ state: STATE_NEEDED })
    expect(taxProblems({ state: '27', ticketTypes: [row('18')] })).toEqual({})
  })

  it('an event without GST needs no state', () => {
    expect(taxProblems({ state: '', ticketTypes: [row('0')] })).toEqual({})
  })
})

describe('GST states in forms', () => {
  it('are named by code and name, in the order of their codes', () => {
    expect(stateLabel('27')).toBe('27 Maharashtra')
    expect(stateLabel('99')).toBe('99')
    expect(stateChoices[0]).toEqual({ code: '01', label: '01 Jammu and Kashmir' })
    const codes = stateChoices.map((choice) => choice.code)
    expect(codes).toEqual([...codes].sort())
  })
})

describe('the Invoices screen', () => {
  it('opens on this month, from its first day to its last', () => {
    expect(thisMonth(new Date(2026, 11, 2, 10, 0))).toEqual({ from: '2026-12-01', to: '2026-12-31' })
    expect(thisMonth(new Date(2028, 1, 15))).toEqual({ from: '2028-02-01', to: '2028-02-29' })
    expect(thisMonth(new Date(2027, 1, 28, 23, 59))).toEqual({ from: '2027-02-01', to: '2027-02-28' })
  })

  it('asks only for days in order', () => {
    expect(isRange({ from: '2026-12-01', to: '2026-12-31' })).toBe(true)
    expect(isRange({ from: '2026-12-01', to: '2026-12-01' })).toBe(true)
    expect(isRange({ from: '2026-12-31', to: '2026-12-01' })).toBe(false)
    expect(isRange({ from: '', to: '2026-12-01' })).toBe(false)
  })

  const documentOf = (
    kind: InvoiceDocument['kind'],
    number: string,
    totals: InvoiceDocument['totals'],
  ): InvoiceDocument => ({
    kind,
    number,
    date: '2026-12-02',
    supplier: { legalName: 'Rangmanch LLP', gstin: '27AAPFU0939F1ZV', address: 'Pune', state: '27' },
    buyer: { name: 'Asha', email: 'asha@example.com' },
    placeOfSupply: '27',
    lines: [],
    totals,
    ticketId: 't1',
    event: { _id: 'e1', title: 'River Ragas', date: '2026-12-20' },
  })

  it('adds up invoices to the paisa and takes credit notes off, whatever their sign', () => {
    const invoice = { taxableValue: 847.46, cgst: 76.27, sgst: 76.27, igst: 0, total: 1000 }
    const other = { taxableValue: 0.1, cgst: 0.2, sgst: 0.2, igst: 0, total: 0.5 }
    const credit = { taxableValue: 847.46, cgst: 76.27, sgst: 76.27, igst: 0, total: 1000 }
    const negativeCredit = { taxableValue: -0.1, cgst: -0.2, sgst: -0.2, igst: 0, total: -0.5 }
    expect(
      registerTotals([
        documentOf('tax-invoice', 'RM/2026-27/000001', invoice),
        documentOf('bill-of-supply', 'RM/2026-27/000002', other),
        documentOf('credit-note', 'RM/2026-27/CN000001', credit),
        documentOf('credit-note', 'RM/2026-27/CN000002', negativeCredit),
      ]),
    ).toEqual({ taxableValue: 0, cgst: 0, sgst: 0, igst: 0, total: 0 })
    expect(
      registerTotals([documentOf('tax-invoice', 'A', invoice), documentOf('tax-invoice', 'B', other)]),
    ).toEqual({ taxableValue: 847.56, cgst: 76.47, sgst: 76.47, igst: 0, total: 1000.5 })
    expect(paiseOf(19.99)).toBe(1999)
  })

  it("shows a credit note's amounts taken off in its own row, as the totals count them", () => {
    const credit = { taxableValue: 500, cgst: 45, sgst: 45, igst: 0, total: 590 }
    const invoice = documentOf('tax-invoice', 'RM/2026-27/000001', credit)
    expect(signedMoney(invoice)).toEqual(credit)
    const note = signedMoney(documentOf('credit-note', 'RM/2026-27/CN000001', credit))
    expect(note).toEqual({ taxableValue: -500, cgst: -45, sgst: -45, igst: 0, total: -590 })
    expect(formatAmount(note.igst)).toBe('₹0.00')
    expect(formatAmount(note.total)).toBe('-₹590.00')
    // whichever sign the server writes
    const negative = { taxableValue: -500, cgst: -45, sgst: -45, igst: 0, total: -590 }
    expect(signedMoney(documentOf('credit-note', 'X', negative)).total).toBe(-590)
  })

  it('adds up nothing to nothing', () => {
    expect(registerTotals([])).toEqual({ taxableValue: 0, cgst: 0, sgst: 0, igst: 0, total: 0 })
  })
})

describe('whether the checkout shows a breakdown', () => {
  const none = { base: 3000, cgst: 0, sgst: 0, igst: 0, fee: 0, feeTax: 0, total: 3000 }
  it('shows one only when a tax or a fee is in it: an untaxed order shows its amount alone, as before', () => {
    expect(breakdownAddsUp(undefined)).toBe(false)
    expect(breakdownAddsUp(none)).toBe(false)
    expect(breakdownAddsUp({ ...none, igst: 540, total: 3540 })).toBe(true)
    expect(breakdownAddsUp({ ...none, fee: 20, total: 3020 })).toBe(true)
  })
})
