// Money in integer paise (issue 13): the rupee ↔ paise edge is exact for every amount the API
// allows, and facts written in rupees before that are read as the current shape.

import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { hasWholePaise, TicketTypeInput } from '../../contracts/catalog.ts'
import { bookingUpcasters } from '../../server/booking/facts.ts'
import { catalogUpcasters } from '../../server/catalog/facts.ts'
import { upcast } from '../../server/ledger/upcast.ts'
import { paiseBound, rupeesCell, rupeesText, sharesOf, toPaise, toRupees } from '../../server/money.ts'
import { upcasters } from '../../server/upcasters.ts'

/** A rupee amount as JSON carries it (the text a client sends), parsed the way the API parses it. */
const typed = (paise: number) =>
  JSON.parse(`${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`)

describe('toPaise and toRupees', () => {
  // ten million amounts: about 3 s on a quiet machine, longer on a busy one
  it('are exact for every amount with two decimals up to ₹1,00,000 (10,000,001 amounts)', {
    timeout: 60_000,
  }, () => {
    const wrong: string[] = []
    for (let paise = 0; paise <= 10_000_000; paise++) {
      const rupees = typed(paise) as number
      if (toPaise(rupees) !== paise) wrong.push(`${rupees} → ${toPaise(rupees)} paise`)
      // the reply's number is the one the decimal names, never 19.990000000000002
      if (toRupees(paise) !== rupees) wrong.push(`${paise} paise → ${toRupees(paise)}`)
      if (wrong.length > 5) break
    }
    expect(wrong).toEqual([])
  })

  it('handle the amounts whose binary form is off: 19.99, 4.35, 1.15, 0.07, 8.2', () => {
    // 19.99 × 100 is 1998.9999999999998 in floating point
    expect(19.99 * 100).not.toBe(1999)
    expect([19.99, 4.35, 1.15, 0.07, 8.2].map(toPaise)).toEqual([1999, 435, 115, 7, 820])
    expect([1999, 435, 115, 7, 820].map(toRupees)).toEqual([19.99, 4.35, 1.15, 0.07, 8.2])
    expect(toRupees(49950)).toBe(499.5)
    expect(toPaise(10_000_000)).toBe(1_000_000_000)
  })

  it('refuses what is not an amount', () => {
    expect(() => toPaise(Number.NaN)).toThrow(RangeError)
    expect(() => toPaise(Number.POSITIVE_INFINITY)).toThrow(RangeError)
  })
})

describe('hasWholePaise and the price rule of POST /event/create', () => {
  const price = (p: unknown) => v.safeParse(TicketTypeInput, { type: 'VIP', price: p, quantity: 1 })

  it('accepts every price with at most two decimals, including those with no exact binary form', () => {
    for (const ok of [
      0,
      1,
      499,
      499.5,
      19.99,
      4.35,
      1.15,
      0.07,
      8.2,
      0.1,
      1250.5,
      '19.99',
      '10.25',
      10_000_000,
    ]) {
      expect(price(ok).success, String(ok)).toBe(true)
    }
    const refused: number[] = []
    for (let paise = 0; paise <= 1_000_000; paise++) if (!hasWholePaise(typed(paise))) refused.push(paise)
    expect(refused).toEqual([])
  })

  it('refuses more than two decimals', () => {
    for (const bad of [1.005, 19.999, 0.001, 10.255, '0.125']) {
      const parsed = price(bad)
      expect(parsed.success, String(bad)).toBe(false)
      expect(parsed.issues?.[0]?.message).toBe('Price can have at most two decimals.')
    }
    expect(hasWholePaise(Number.NaN)).toBe(false)
  })
})

describe('paiseBound (a price filter bound typed as text)', () => {
  it('is exact, and rounds a bound with more decimals inwards', () => {
    expect(paiseBound('0', 'up')).toBe(0)
    expect(paiseBound('499', 'down')).toBe(49900)
    expect(paiseBound('19.99', 'up')).toBe(1999)
    expect(paiseBound('19.99', 'down')).toBe(1999)
    expect(paiseBound('99.5', 'up')).toBe(9950)
    expect(paiseBound('100.555', 'up')).toBe(10056)
    expect(paiseBound('100.555', 'down')).toBe(10055)
    expect(paiseBound('100.550', 'up')).toBe(10055)
    expect(paiseBound(' 7 ', 'down')).toBe(700)
    expect(() => paiseBound('-5', 'up')).toThrow(RangeError)
  })
})

describe("sharesOf (an order's amount shared among its admissions)", () => {
  it('gives whole paise that add up to the amount, the first ones a paisa more where it does not divide', () => {
    expect(sharesOf(2492, 3)).toEqual([831, 831, 830])
    expect(sharesOf(150000, 3)).toEqual([50000, 50000, 50000])
    expect(sharesOf(1, 3)).toEqual([1, 0, 0])
    expect(sharesOf(0, 2)).toEqual([0, 0])
    expect(sharesOf(49900, 1)).toEqual([49900])
    for (const [amount, count] of [
      [99_999, 7],
      [10, 10],
      [12_345_678, 9],
    ] as const) {
      const shares = sharesOf(amount, count)
      expect(shares).toHaveLength(count)
      expect(shares.reduce((a, b) => a + b, 0)).toBe(amount)
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1)
    }
  })
})

describe('rupeesCell (an amount for a spreadsheet)', () => {
  it('writes rupees with both paise digits', () => {
    expect(rupeesCell(830)).toBe('8.30')
    expect(rupeesCell(150000)).toBe('1500.00')
    expect(rupeesCell(5)).toBe('0.05')
    expect(rupeesCell(0)).toBe('0.00')
    expect(rupeesCell(199999)).toBe('1999.99')
    expect(rupeesCell(-250)).toBe('-2.50')
  })
})

describe('upcasters: facts written in rupees are read in paise', () => {
  const oldHeld = {
    orderId: 'o1',
    buyerId: 'asha',
    eventId: 'e1',
    organizerId: 'org1',
    ticketTypeId: 'vip',
    ticketType: 'VIP',
    quantity: 3,
    unitPrice: 19.99,
    // as the old route made it: Math.round(19.99 × 3 × 100) / 100
    amount: Math.round(19.99 * 3 * 100) / 100,
    provider: 'local',
    providerOrderId: 'order_1',
    heldUntil: '2030-01-01T10:10:00.000Z',
  }

  it('TicketsHeld: unitPrice and amount become unitPricePaise and amountPaise', () => {
    const { unitPrice: _, amount: __, ...rest } = oldHeld
    expect(upcast(upcasters, 'TicketsHeld', oldHeld)).toEqual({
      ...rest,
      unitPricePaise: 1999,
      amountPaise: 5997,
    })
  })

  it('PaymentCaptured, TicketsIssued, RefundRequested, PaymentRefunded: amount becomes amountPaise', () => {
    // the old PaymentCaptured held the provider's paise / 100
    expect(
      upcast(upcasters, 'PaymentCaptured', {
        orderId: 'o1',
        paymentId: 'p',
        amount: 5997 / 100,
        method: 'card',
      }),
    ).toEqual({ orderId: 'o1', paymentId: 'p', amountPaise: 5997, method: 'card' })
    const issued = {
      orderId: 'o1',
      ownerId: 'asha',
      eventId: 'e1',
      ticketTypeId: 'vip',
      quantity: 2,
      amount: 999,
      afterExpiry: false,
    }
    expect(upcast(upcasters, 'TicketsIssued', issued)).toEqual({
      orderId: 'o1',
      ownerId: 'asha',
      eventId: 'e1',
      ticketTypeId: 'vip',
      quantity: 2,
      amountPaise: 99900,
      afterExpiry: false,
    })
    expect(
      upcast(upcasters, 'RefundRequested', {
        orderId: 'o1',
        paymentId: 'p',
        amount: 499.5,
        reason: 'cancelled',
      }),
    ).toEqual({ orderId: 'o1', paymentId: 'p', amountPaise: 49950, reason: 'cancelled' })
    expect(
      upcast(upcasters, 'PaymentRefunded', { orderId: 'o1', paymentId: 'p', refundId: 'r', amount: 0.07 }),
    ).toEqual({ orderId: 'o1', paymentId: 'p', refundId: 'r', amountPaise: 7 })
  })

  it('EventSubmitted: each ticket type’s price becomes pricePaise, the rest as it was', () => {
    const old = {
      eventId: 'e1',
      title: 'Raga Nights',
      ticketTypes: [
        { ticketTypeId: 'ga', type: 'General Admission', price: 499.5, quantity: 100 },
        { ticketTypeId: 'vip', type: 'VIP', price: 19.99, quantity: 20 },
      ],
    }
    expect(upcast(upcasters, 'EventSubmitted', old)).toEqual({
      eventId: 'e1',
      title: 'Raga Nights',
      ticketTypes: [
        { ticketTypeId: 'ga', type: 'General Admission', pricePaise: 49950, quantity: 100 },
        { ticketTypeId: 'vip', type: 'VIP', pricePaise: 1999, quantity: 20 },
      ],
    })
  })

  it('leaves facts of the current shape as they are (the same object), and other fact types alone', () => {
    const current = { orderId: 'o1', paymentId: 'p', amountPaise: 5997, method: 'card' }
    expect(upcast(upcasters, 'PaymentCaptured', current)).toBe(current)
    const submitted = { eventId: 'e1', ticketTypes: [{ ticketTypeId: 'ga', pricePaise: 0 }] }
    expect(upcast(upcasters, 'EventSubmitted', submitted)).toBe(submitted)
    const cancelled = { orderId: 'o1', quantity: 2 }
    expect(upcast(upcasters, 'TicketCancelled', cancelled)).toBe(cancelled)
    // once upcast, upcasting again changes nothing
    const once = upcast(upcasters, 'TicketsHeld', oldHeld)
    expect(upcast(upcasters, 'TicketsHeld', once)).toBe(once)
  })

  it('has one upcaster per fact type that ever carried rupees (and the door staff removal of before invitations)', () => {
    expect(Object.keys(upcasters).sort()).toEqual(
      [...Object.keys(bookingUpcasters), ...Object.keys(catalogUpcasters)].sort(),
    )
    expect(Object.keys(upcasters).sort()).toEqual([
      'DoorStaffRemoved',
      'EventSubmitted',
      'PaymentCaptured',
      'PaymentRefunded',
      'RefundRequested',
      'TicketsHeld',
      'TicketsIssued',
    ])
  })
})

describe('amounts as people read them', () => {
  it('show paise only when there are some, with Indian grouping, whichever came before', () => {
    expect(rupeesText(149900)).toBe('₹1,499')
    expect(rupeesText(49950)).toBe('₹499.50')
    expect(rupeesText(149900)).toBe('₹1,499')
    expect(rupeesText(123456789)).toBe('₹12,34,567.89')
    expect(rupeesText(0)).toBe('₹0')
  })
})
