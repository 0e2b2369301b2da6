// The door's own decision on a scan (web/src/screens/checkin/decide.ts), made offline from the
// manifest and what this device admitted: each result the server gives, in the server's order
// (form and signature, event, void, already admitted, admitted), and what only the server can say.
import { describe, expect, it } from 'vitest'
import { type DecideInput, decideScan } from '../../web/src/screens/checkin/decide.ts'
import { parsePassCode } from '../../web/src/screens/checkin/pass-code.ts'
import { passListOf } from '../../web/src/screens/checkin/pass-list.ts'
import { makePassCode, manifestOf, passKeys } from './checkin-support.ts'

const keys = passKeys()
const FIRST = Date.parse('2031-01-01T18:05:00.000Z')
const NOW = '2031-01-01T18:30:00.000Z'

const list = passListOf(
  manifestOf(
    keys.publicKey,
    [
      ['ord_a.1.0', 0, null, 0, 'asha'],
      ['ord_a.2.0', 1, FIRST, 0, 'asha'],
      ['ord_b.1.1', 0, null, 1, 'ravi'],
      ['ord_c.1.0', 2, null, 0, 'meera'],
    ],
    { voided: ['ord_b.1.0', 'ord_x.1.0'] },
  ),
)

const code = (t: string, a: number, v: number, e = 'evt_1') =>
  parsePassCode(makePassCode({ e, t, a, v }, keys.privateKey))

/** the door's decision on this code, signature checked (true) unless told */
const decide = (changes: Partial<DecideInput>) =>
  decideScan({
    eventId: 'evt_1',
    code: code('ord_a', 1, 0),
    signatureValid: true,
    list,
    admittedHere: new Map(),
    now: NOW,
    ...changes,
  })

describe('a scan decided at the door, offline', () => {
  it('admits a valid pass, with its holder, ticket type and admission', () => {
    expect(decide({})).toEqual({
      result: 'admitted',
      passId: 'ord_a.1.0',
      admission: 1,
      holder: 'asha',
      ticketType: 'General Admission',
      admittedAt: NOW,
    })
  })

  it('says already admitted for a pass this device admitted before', () => {
    const decision = decide({ admittedHere: new Map([['ord_a.1.0', '2031-01-01T18:10:00.000Z']]) })
    expect(decision.result).toBe('already-admitted')
    expect(decision.admittedAt).toBe('2031-01-01T18:10:00.000Z')
    expect(decision.holder).toBe('asha')
  })

  it('says already admitted for a pass the manifest lists as admitted, with when', () => {
    const decision = decide({ code: code('ord_a', 2, 0) })
    expect(decision).toMatchObject({ result: 'already-admitted', admission: 2 })
    expect(decision.admittedAt).toBe(new Date(FIRST).toISOString())
  })

  it('gives the earliest admission it knows of', () => {
    const decision = decide({
      code: code('ord_a', 2, 0),
      admittedHere: new Map([['ord_a.2.0', '2031-01-01T18:20:00.000Z']]),
    })
    expect(decision.admittedAt).toBe(new Date(FIRST).toISOString())
  })

  it('says void for a cancelled ticket, even one this device admitted', () => {
    expect(decide({ code: code('ord_c', 1, 0) }).result).toBe('void')
    expect(decide({ code: code('ord_c', 1, 0), admittedHere: new Map([['ord_c.1.0', NOW]]) }).result).toBe(
      'void',
    )
  })

  it("says void for a transferred ticket's old pass, listed as voided or older than the ticket", () => {
    expect(decide({ code: code('ord_b', 1, 0) }).result).toBe('void')
    const noVoidedList = passListOf(manifestOf(keys.publicKey, [['ord_b.1.1', 0, null, 1, 'ravi']]))
    expect(decide({ code: code('ord_b', 1, 0), list: noVoidedList }).result).toBe('void')
  })

  it('says void for a pass the manifest lists as voided alone, though signed and otherwise unknown', () => {
    expect(decide({ code: code('ord_x', 1, 0) }).result).toBe('void')
  })

  it("admits the new owner's pass of a transferred ticket", () => {
    expect(decide({ code: code('ord_b', 1, 1) })).toMatchObject({
      result: 'admitted',
      holder: 'ravi',
      ticketType: 'VIP',
    })
  })

  it("says invalid for an admission beyond the ticket's quantity", () => {
    expect(decide({ code: code('ord_a', 3, 0) }).result).toBe('invalid')
  })

  it('says too early before the door opens (by the scan’s time), naming the holder; admits from the opening on', () => {
    const opening = passListOf(
      manifestOf(keys.publicKey, [['ord_a.1.0', 0, null, 0, 'asha']], {
        opensAt: '2031-01-01T18:00:00.000Z',
      }),
    )
    expect(decide({ list: opening, now: '2031-01-01T17:59:59.999Z' })).toEqual({
      result: 'too-early',
      passId: 'ord_a.1.0',
      admission: 1,
      holder: 'asha',
      ticketType: 'General Admission',
      admittedAt: null,
    })
    // a pass signed but not listed yet is too early too
    expect(
      decide({ list: opening, now: '2031-01-01T10:00:00.000Z', code: code('ord_new', 1, 0) }).result,
    ).toBe('too-early')
    expect(decide({ list: opening, now: '2031-01-01T18:00:00.000Z' }).result).toBe('admitted')
    // a manifest kept from before it told the opening decides as before
    expect(decide({ now: '2020-01-01T00:00:00.000Z' }).result).toBe('admitted')
  })

  it('says invalid for a text that is no pass code, and for a bad signature', () => {
    expect(decide({ code: null })).toMatchObject({ result: 'invalid', passId: null, holder: null })
    expect(decide({ signatureValid: false }).result).toBe('invalid')
  })

  it('says wrong event for a real pass of another event', () => {
    expect(decide({ code: code('ord_z', 1, 0, 'evt_2') })).toMatchObject({
      result: 'wrong-event',
      passId: null,
    })
  })

  it('checks the signature before the event (a forged pass of another event is invalid)', () => {
    expect(decide({ code: code('ord_z', 1, 0, 'evt_2'), signatureValid: false }).result).toBe('invalid')
  })

  it('admits a signed pass the manifest does not list yet (a ticket sold since)', () => {
    expect(decide({ code: code('ord_new', 1, 0) })).toMatchObject({
      result: 'admitted',
      passId: 'ord_new.1.0',
      holder: null,
    })
  })

  it('cannot tell an unlisted pass without a signature check: only the server can', () => {
    expect(decide({ code: code('ord_new', 1, 0), signatureValid: null }).result).toBe('unchecked')
    expect(decide({ list: null, signatureValid: null }).result).toBe('unchecked')
  })

  it('still decides listed passes without a signature check (no Ed25519 in this browser)', () => {
    expect(decide({ signatureValid: null }).result).toBe('admitted')
    expect(decide({ code: code('ord_a', 2, 0), signatureValid: null }).result).toBe('already-admitted')
  })

  it("remembers this device's admissions with no manifest at all", () => {
    const decision = decide({ list: null, signatureValid: null, admittedHere: new Map([['ord_a.1.0', NOW]]) })
    expect(decision.result).toBe('already-admitted')
  })
})

describe('the manifest as the door looks passes up in it', () => {
  it("indexes passes, voided ids and each ticket's version and admissions", () => {
    expect(list.passes.get('ord_a.2.0')).toEqual({
      status: 'admitted',
      admittedAt: FIRST,
      ticketType: 'General Admission',
      holder: 'asha',
    })
    expect(list.voided.has('ord_b.1.0')).toBe(true)
    expect(list.tickets.get('ord_a')).toEqual({ version: 0, admissions: 2 })
    expect(list.tickets.get('ord_b')).toEqual({ version: 1, admissions: 1 })
  })
})
