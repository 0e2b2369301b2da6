// A pass code as the door reads it (door-design.md): `TKT1.<payload>.<signature>` parsed without a
// network, and its Ed25519 signature checked with the manifest's public key through WebCrypto, as
// the browser does. Codes are signed here the way the server signs them (node:crypto, the same
// payload bytes), so a forged, altered or foreign code is told from a real one.
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { passIdOf } from '../../contracts/pass-code.ts'
import {
  fromBase64Url,
  importPassKey,
  parsePassCode,
  verifyPassCode,
} from '../../web/src/screens/checkin/pass-code.ts'
import { makePassCode, passKeys } from './checkin-support.ts'

const keys = passKeys()
const claim = { e: 'evt_1', t: 'ord_abc', a: 2, v: 0 }

describe('parsing a pass code', () => {
  it('reads the event, ticket, admission and version, and names the pass', () => {
    const parsed = parsePassCode(makePassCode(claim, keys.privateKey))
    expect(parsed?.claim).toEqual({ eventId: 'evt_1', ticketId: 'ord_abc', admission: 2, version: 0 })
    expect(parsed?.passId).toBe('ord_abc.2.0')
    expect(passIdOf({ ticketId: 'ord_abc', admission: 2, version: 0 })).toBe('ord_abc.2.0')
  })

  it('ignores whitespace around a pasted code', () => {
    expect(parsePassCode(`  ${makePassCode(claim, keys.privateKey)}\n`)?.passId).toBe('ord_abc.2.0')
  })

  it.each([
    ['an empty text', ''],
    ['another QR code', 'https://example.com/ticket/1'],
    ['another prefix', makePassCode(claim, keys.privateKey).replace(/^TKT1/, 'TKT2')],
    ['a missing signature', makePassCode(claim, keys.privateKey).split('.').slice(0, 2).join('.')],
    ['an extra part', `${makePassCode(claim, keys.privateKey)}.x`],
    ['a payload that is not base64url', 'TKT1.ab+c.abc'],
    ['a payload that is not JSON', `TKT1.${Buffer.from('nope').toString('base64url')}.${'A'.repeat(86)}`],
    ['a short signature', `TKT1.${Buffer.from(JSON.stringify(claim)).toString('base64url')}.AAAA`],
    ['admission 0', makePassCode({ ...claim, a: 0 }, keys.privateKey)],
    ['a negative version', makePassCode({ ...claim, v: -1 }, keys.privateKey)],
    ['a fractional admission', makePassCode({ ...claim, a: 1.5 }, keys.privateKey)],
    ['a missing event', makePassCode({ t: 'ord_abc', a: 1, v: 0 }, keys.privateKey)],
    ['an event id with a dot', makePassCode({ ...claim, e: 'evt.1' }, keys.privateKey)],
    // well-formed and signed, but longer than the server takes (1000 characters)
    ['a code too long to send', makePassCode({ ...claim, x: 'y'.repeat(800) }, keys.privateKey)],
  ])('refuses %s', (_, text) => {
    expect(parsePassCode(text)).toBeNull()
  })

  it('decodes base64url strictly', () => {
    expect(fromBase64Url('AQID')).toEqual(new Uint8Array([1, 2, 3]))
    expect(fromBase64Url('_-8')).toEqual(new Uint8Array([255, 239]))
    expect(fromBase64Url('AQID=')).toBeNull()
    expect(fromBase64Url('A')).toBeNull()
    expect(fromBase64Url('A/B')).toBeNull()
  })
})

describe('verifying a pass code with the manifest key', () => {
  const verify = async (code: string, publicKey = keys.publicKey) => {
    const parsed = parsePassCode(code)
    const key = await importPassKey(publicKey)
    if (!parsed || !key) throw new Error('expected a code and a key')
    return verifyPassCode(parsed, key)
  }

  it('accepts a code the server signed', async () => {
    expect(await verify(makePassCode(claim, keys.privateKey))).toBe(true)
  })

  it('refuses a code signed with another key (a forgery)', async () => {
    const other = generateKeyPairSync('ed25519').privateKey
    expect(await verify(makePassCode(claim, other))).toBe(false)
  })

  it('refuses a code whose payload was altered (another admission, same signature)', async () => {
    const real = makePassCode(claim, keys.privateKey)
    const signature = real.split('.')[2]
    const altered = `TKT1.${Buffer.from(JSON.stringify({ ...claim, a: 3 })).toString('base64url')}.${signature}`
    expect(parsePassCode(altered)?.claim.admission).toBe(3)
    expect(await verify(altered)).toBe(false)
  })

  it('refuses a signature over other bytes than `TKT1.<payload>`', async () => {
    const payload = Buffer.from(JSON.stringify(claim)).toString('base64url')
    const overPayloadAlone = sign(null, Buffer.from(payload), keys.privateKey as KeyObject).toString(
      'base64url',
    )
    expect(await verify(`TKT1.${payload}.${overPayloadAlone}`)).toBe(false)
  })

  it('has no key for a malformed public key', async () => {
    expect(await importPassKey('not a key')).toBeNull()
    expect(await importPassKey(Buffer.alloc(31).toString('base64url'))).toBeNull()
  })

  it('has no key where WebCrypto lacks Ed25519 (then the manifest alone is the check)', async () => {
    const noEd25519 = {
      importKey: () => Promise.reject(new DOMException('Unrecognized name.', 'NotSupportedError')),
    } as unknown as SubtleCrypto
    expect(await importPassKey(keys.publicKey, noEd25519)).toBeNull()
  })
})
