// The server's pass codes (door-design.md, Pass codes): the Ed25519 key derived from JWT_SECRET by
// HKDF (or PASS_SIGNING_KEY), codes `TKT1.<payload>.<signature>` over the exact payload bytes the
// design fixes, verified by the server and, with the manifest's public key alone, by the browser's
// WebCrypto (the door's own parser); anything forged, altered or garbled is refused.
import { createHmac, createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { passIdOf } from '../../contracts/pass-code.ts'
import { lazyPassSigner, passSeed, passSigner } from '../../server/checkin/pass-codes.ts'
import { loadConfig } from '../../server/config.ts'
import { importPassKey, parsePassCode, verifyPassCode } from '../../web/src/screens/checkin/pass-code.ts'

const SECRET = 'a-jwt-secret-of-at-least-32-characters!'
const signer = passSigner(passSeed(SECRET))
const claim = { eventId: 'evt_1', ticketId: '65f0c0ffee0123456789abcd', admission: 2, version: 1 }

/** HKDF-SHA256 (RFC 5869) written out with HMAC, empty salt: the design's derivation, by hand */
function hkdf(secret: string, info: string): Buffer {
  const prk = createHmac('sha256', Buffer.alloc(32)).update(secret).digest()
  return createHmac('sha256', prk)
    .update(Buffer.concat([Buffer.from(info), Buffer.from([1])]))
    .digest()
}

const b64 = (text: string) => Buffer.from(text).toString('base64url')
const parts = (code: string) => code.split('.') as [string, string, string]

describe('the signing key', () => {
  it('is HKDF-SHA256 of JWT_SECRET with info "ticket passes v1", as the design says', () => {
    expect(passSeed(SECRET)).toEqual(hkdf(SECRET, 'ticket passes v1'))
  })

  it('is the same for every process with the same secret, and another for another secret', () => {
    expect(passSigner(passSeed(SECRET)).publicKey).toBe(signer.publicKey)
    expect(passSigner(passSeed(`${SECRET}x`)).publicKey).not.toBe(signer.publicKey)
  })

  it('is PASS_SIGNING_KEY when set, whatever JWT_SECRET is', () => {
    const seed = randomBytes(32).toString('base64url')
    expect(passSigner(passSeed(SECRET, seed)).publicKey).toBe(passSigner(passSeed('other', seed)).publicKey)
    expect(passSigner(passSeed(SECRET, seed)).publicKey).not.toBe(signer.publicKey)
  })

  it('refuses a PASS_SIGNING_KEY that is not 32 bytes, at start', () => {
    expect(() => loadConfig({ PASS_SIGNING_KEY: 'short' })).toThrow(/PASS_SIGNING_KEY/)
    const key = randomBytes(32).toString('base64url')
    expect(loadConfig({ PASS_SIGNING_KEY: key }).passSigningKey).toBe(key)
    expect(loadConfig({}).passSigningKey).toBeNull()
  })

  it('is made on first use only (a process that never signs needs no secret), then signs alike', () => {
    let asked = 0
    const lazy = lazyPassSigner(() => {
      asked++
      return passSeed(SECRET)
    })
    expect(asked).toBe(0)
    expect(() => lazyPassSigner(() => passSeed('')).publicKey).toThrow(/JWT_SECRET/)
    expect(lazy.verify(signer.codeOf(claim))).toEqual(claim)
    expect(lazy.publicKey).toBe(signer.publicKey)
    expect(lazy.codeOf(claim)).toBe(signer.codeOf(claim))
    expect(asked).toBe(1)
  })

  it('publishes the raw 32-byte public key in base64url', () => {
    expect(Buffer.from(signer.publicKey, 'base64url')).toHaveLength(32)
  })
})

describe('a code', () => {
  it('carries the payload {"e","t","a","v"} in that order, and names its pass', () => {
    const [prefix, payload] = parts(signer.codeOf(claim))
    expect(prefix).toBe('TKT1')
    expect(Buffer.from(payload, 'base64url').toString('utf8')).toBe(
      '{"e":"evt_1","t":"65f0c0ffee0123456789abcd","a":2,"v":1}',
    )
    expect(passIdOf(claim)).toBe('65f0c0ffee0123456789abcd.2.1')
  })

  it('verifies on the server as what it claims', () => {
    expect(signer.verify(signer.codeOf(claim))).toEqual(claim)
    expect(signer.verify(`  ${signer.codeOf(claim)}\n`)).toEqual(claim)
  })

  it("verifies in the browser's WebCrypto with the manifest's public key alone", async () => {
    const key = await importPassKey(signer.publicKey)
    if (!key) throw new Error('this Node has no Ed25519 in WebCrypto')
    const parsed = parsePassCode(signer.codeOf(claim))
    expect(parsed?.passId).toBe('65f0c0ffee0123456789abcd.2.1')
    expect(parsed && (await verifyPassCode(parsed, key))).toBe(true)
    const other = await importPassKey(passSigner(passSeed('another secret, 32 characters long')).publicKey)
    expect(parsed && other && (await verifyPassCode(parsed, other))).toBe(false)
  })
})

describe('what is not a code of ours', () => {
  const code = signer.codeOf(claim)
  const [prefix, payload, signature] = parts(code)
  const foreign = generateKeyPairSync('ed25519').privateKey
  const signedBy = (text: string) => sign(null, Buffer.from(text, 'ascii'), foreign).toString('base64url')
  const flipped = (text: string, at: number) =>
    text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1)

  it.each([
    ['a code signed with another key (forged)', `${prefix}.${payload}.${signedBy(`${prefix}.${payload}`)}`],
    [
      'another admission under the old signature',
      `${prefix}.${b64(JSON.stringify({ e: 'evt_1', t: claim.ticketId, a: 3, v: 1 }))}.${signature}`,
    ],
    [
      'another event under the old signature',
      `${prefix}.${b64(JSON.stringify({ e: 'evt_2', t: claim.ticketId, a: 2, v: 1 }))}.${signature}`,
    ],
    ['one character of the payload changed', `${prefix}.${flipped(payload, 5)}.${signature}`],
    ['one character of the signature changed', `${prefix}.${payload}.${flipped(signature, 10)}`],
    [
      'the signature of another code',
      `${prefix}.${payload}.${parts(signer.codeOf({ ...claim, admission: 1 }))[2]}`,
    ],
    ['a signature with a character too many', `${code}A`],
    ['a truncated code', code.slice(0, -3)],
    ['another prefix', code.replace(/^TKT1/, 'TKT2')],
    ['no signature', `${prefix}.${payload}`],
    ['an extra part', `${code}.x`],
    ['an empty text', ''],
    ['garbage', 'hello, door'],
    ['another QR code', 'https://example.com/ticket/1'],
    ['a payload that is not base64url', `${prefix}.ab+c.${signature}`],
    ['too long', `${code}${'A'.repeat(1000)}`],
  ])('refuses %s', (_label, text) => {
    expect(signer.verify(text)).toBeNull()
  })

  it.each([
    ['not JSON', 'nope'],
    ['a list', '[1,2]'],
    ['admission 0', JSON.stringify({ e: 'evt_1', t: 't1', a: 0, v: 0 })],
    ['a negative version', JSON.stringify({ e: 'evt_1', t: 't1', a: 1, v: -1 })],
    ['a fractional admission', JSON.stringify({ e: 'evt_1', t: 't1', a: 1.5, v: 0 })],
    ['an event id with a dot', JSON.stringify({ e: 'evt.1', t: 't1', a: 1, v: 0 })],
    ['a missing ticket', JSON.stringify({ e: 'evt_1', a: 1, v: 0 })],
  ])('refuses a payload that is %s, even signed with our own key', (_label, json) => {
    const text = `TKT1.${b64(json)}`
    expect(signer.verify(`${text}.${signedWithSeed(passSeed(SECRET), text)}`)).toBeNull()
  })
})

/** any text signed with the pass key of this seed (codeOf signs claims only) */
function signedWithSeed(seed: Buffer, text: string): string {
  const key = createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
    format: 'der',
    type: 'pkcs8',
  })
  return sign(null, Buffer.from(text, 'ascii'), key).toString('base64url')
}
