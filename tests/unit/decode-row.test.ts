// A ledger row becomes a fact (server/ledger/ledger.ts, decodeRow) whose data and meta are parsed
// when first read, once, in their current shape: a consumer that passes over a fact's type never
// parses its text.
import { describe, expect, it } from 'vitest'
import { decodeRow, type LedgerRow } from '../../server/ledger/ledger.ts'
import { upcasters } from '../../server/upcasters.ts'

const row = (type: string, data: string, meta = '{"actor":"asha"}'): LedgerRow => ({
  position: 7,
  stream: 'order-o1',
  version: 2,
  type,
  data,
  meta,
  at: '2026-12-06T10:00:00.000Z',
})

describe('decodeRow', () => {
  it('is the fact the row holds, its data upcast to the current shape', () => {
    const fact = decodeRow(
      upcasters,
      row('PaymentCaptured', '{"orderId":"o1","paymentId":"pay_1","amount":59.97}'),
    )
    expect(fact).toEqual({
      position: 7,
      stream: 'order-o1',
      version: 2,
      type: 'PaymentCaptured',
      data: { orderId: 'o1', paymentId: 'pay_1', amountPaise: 5997 },
      meta: { actor: 'asha' },
      at: '2026-12-06T10:00:00.000Z',
    })
    expect(JSON.parse(JSON.stringify(fact))).toEqual(fact)
    expect({ ...fact }.data).toEqual({ orderId: 'o1', paymentId: 'pay_1', amountPaise: 5997 })
  })

  it('parses neither data nor meta until read, and each once', () => {
    // text that is not JSON throws when parsed: a fact passed over by its type never is
    const broken = decodeRow({}, row('HoldExpired', '{not json', '{not json either'))
    expect(broken.type).toBe('HoldExpired')
    expect(broken.stream).toBe('order-o1')
    expect(() => broken.data).toThrow(SyntaxError)
    expect(() => broken.meta).toThrow(SyntaxError)

    const fact = decodeRow({}, row('HoldExpired', '{"orderId":"o1","seats":[{"id":"s1"}]}'))
    const first = fact.data
    expect(fact.data).toBe(first)
    expect(fact.meta).toBe(fact.meta)
  })
})
