// A process decodes each ledger row once for all its readers (server/ledger/ledger.ts, decodedFacts),
// and decodes it again whenever the row it is given is not the one it decoded.
import { describe, expect, it } from 'vitest'
import { decodedFacts, type LedgerRow } from '../../server/ledger/ledger.ts'
import { upcasters } from '../../server/upcasters.ts'

const row = (position: number, data: object, more: Partial<LedgerRow> = {}): LedgerRow => ({
  position,
  stream: `order-o${position}`,
  version: 1,
  type: 'HoldExpired',
  data: JSON.stringify(data),
  meta: JSON.stringify({ by: 'asha' }),
  at: '2026-12-06T10:00:00.000Z',
  ...more,
})

describe('decodedFacts', () => {
  it('gives every reader of a row the one fact decoded from it', () => {
    const decode = decodedFacts({})
    const first = decode(row(1, { orderId: 'o1' }))
    expect(first).toEqual({
      position: 1,
      stream: 'order-o1',
      version: 1,
      type: 'HoldExpired',
      data: { orderId: 'o1' },
      meta: { by: 'asha' },
      at: '2026-12-06T10:00:00.000Z',
    })
    expect(decode(row(1, { orderId: 'o1' }))).toBe(first)
    expect(decode(row(2, { orderId: 'o1' }))).not.toBe(first)
  })

  it('decodes a row again when its text, time, stream, version or type is not what it decoded', () => {
    const decode = decodedFacts({})
    const first = decode(row(1, { orderId: 'o1', released: false }))
    const rewritten = decode(row(1, { orderId: 'o1', released: true }))
    expect(rewritten).not.toBe(first)
    expect(rewritten.data).toEqual({ orderId: 'o1', released: true })
    for (const change of [
      { meta: JSON.stringify({ by: 'ravi' }) },
      { at: '2026-12-06T11:00:00.000Z' },
      { stream: 'order-o9' },
      { version: 2 },
      { type: 'PaymentFailed' },
    ]) {
      const other = decode(row(1, { orderId: 'o1', released: true }, change))
      expect(other).not.toBe(rewritten)
      expect(other).toMatchObject(change.meta ? { meta: { by: 'ravi' } } : change)
    }
  })

  it('upcasts as it decodes, once', () => {
    const decode = decodedFacts(upcasters)
    const old = row(3, { orderId: 'o3', paymentId: 'pay_1', amount: 59.97 }, { type: 'PaymentCaptured' })
    const fact = decode(old)
    expect(fact.data).toMatchObject({ amountPaise: 5997 })
    expect(fact.data).not.toHaveProperty('amount')
    expect(decode(old)).toBe(fact)
  })

  it('keeps the newest rows it was given, up to its bound', () => {
    const decode = decodedFacts({}, 3)
    const kept = [1, 2, 3, 4].map((p) => decode(row(p, { orderId: `o${p}` })))
    // 1 was dropped for 4; 2, 3 and 4 are still the same objects
    expect(decode(row(1, { orderId: 'o1' }))).not.toBe(kept[0])
    expect(decode(row(3, { orderId: 'o3' }))).toBe(kept[2])
    expect(decode(row(4, { orderId: 'o4' }))).toBe(kept[3])
  })

  it('lends facts frozen under the test runner: a reader that changes one throws', () => {
    const decode = decodedFacts({})
    const fact = decode(row(5, { orderId: 'o5', seats: [{ id: 's1' }] }))
    const data = fact.data as { orderId: string; seats: Array<{ id: string }> }
    expect(() => {
      data.orderId = 'changed'
    }).toThrow(TypeError)
    expect(() => data.seats.push({ id: 's2' })).toThrow(TypeError)
    expect(() => {
      ;(data.seats[0] as { id: string }).id = 'changed'
    }).toThrow(TypeError)
    expect(decode(row(5, { orderId: 'o5', seats: [{ id: 's1' }] })).data).toEqual({
      orderId: 'o5',
      seats: [{ id: 's1' }],
    })
  })
})
