// The codes a ticket's passes carry (door-design.md, Pass codes): `TKT1.<payload>.<signature>`, the
// payload base64url of the JSON {e, t, a, v} (event, ticket, admission, version, in that order),
// the signature Ed25519 over the ASCII bytes of `TKT1.<payload>`. A scanner verifies a code with the
// public key alone (the manifest carries it), so a forged or altered code is known offline.
//
// The key is derived from JWT_SECRET (HKDF-SHA256, info "ticket passes v1"), so every process that
// shares the secret signs alike and nothing new is stored; PASS_SIGNING_KEY (a base64url 32-byte
// seed) sets it instead. Rotating either voids every code printed so far.
import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject, sign, verify } from 'node:crypto'
import { MAX_CODE_LENGTH, PASS_CODE_PREFIX, type PassClaim, passClaimOf } from '../../contracts/pass-code.ts'

/** the PKCS#8 DER of an Ed25519 private key is this prefix and the 32-byte seed (RFC 8410) */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex')
const SEED_BYTES = 32
const SIGNATURE_BYTES = 64
const BASE64URL = /^[A-Za-z0-9_-]+$/

/** The seed of the signing key: PASS_SIGNING_KEY's, else derived from JWT_SECRET. */
export function passSeed(jwtSecret: string, signingKey: string | null = null): Buffer {
  if (signingKey) {
    const seed = Buffer.from(signingKey, 'base64url')
    if (seed.length !== SEED_BYTES) throw new Error('PASS_SIGNING_KEY must be 32 bytes in base64url')
    return seed
  }
  if (!jwtSecret) throw new Error('pass codes need JWT_SECRET (or PASS_SIGNING_KEY) to sign with')
  return Buffer.from(hkdfSync('sha256', jwtSecret, Buffer.alloc(0), 'ticket passes v1', SEED_BYTES))
}

export type PassSigner = {
  /** base64url of the raw 32 bytes, as WebCrypto imports it ('raw', Ed25519) */
  publicKey: string
  /** the code of one pass */
  codeOf(claim: PassClaim): string
  /** the claim of a code this key signed, or null for anything else */
  verify(code: string): PassClaim | null
}

/**
 * A signer made on first use: a process that never signs nor checks a code (the worker process,
 * which is not given JWT_SECRET in development) needs no key.
 */
export function lazyPassSigner(seed: () => Buffer): PassSigner {
  let signer: PassSigner | null = null
  const made = () => {
    signer ??= passSigner(seed())
    return signer
  }
  return {
    get publicKey() {
      return made().publicKey
    },
    codeOf: (claim) => made().codeOf(claim),
    verify: (code) => made().verify(code),
  }
}

export function passSigner(seed: Buffer): PassSigner {
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, seed]),
    format: 'der',
    type: 'pkcs8',
  })
  const publicKeyObject = createPublicKey(privateKey)
  // the raw key is the last 32 bytes of its SPKI DER
  const raw = publicKeyObject.export({ format: 'der', type: 'spki' }).subarray(-SEED_BYTES)
  return {
    publicKey: Buffer.from(raw).toString('base64url'),
    codeOf(claim) {
      const payload = Buffer.from(
        JSON.stringify({ e: claim.eventId, t: claim.ticketId, a: claim.admission, v: claim.version }),
      ).toString('base64url')
      const signed = `${PASS_CODE_PREFIX}.${payload}`
      return `${signed}.${sign(null, Buffer.from(signed, 'ascii'), privateKey).toString('base64url')}`
    },
    verify(text) {
      const code = text.trim()
      if (code.length === 0 || code.length > MAX_CODE_LENGTH) return null
      const parts = code.split('.')
      if (parts.length !== 3 || parts[0] !== PASS_CODE_PREFIX) return null
      const [, payload = '', signatureText = ''] = parts
      if (!BASE64URL.test(payload) || !BASE64URL.test(signatureText)) return null
      const signature = Buffer.from(signatureText, 'base64url')
      // Buffer's decoder skips what it cannot read: only the canonical text of 64 bytes is a signature
      if (signature.length !== SIGNATURE_BYTES || signature.toString('base64url') !== signatureText)
        return null
      const signed = Buffer.from(`${PASS_CODE_PREFIX}.${payload}`, 'ascii')
      if (!verify(null, signed, publicKeyObject, signature)) return null
      try {
        return passClaimOf(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')))
      } catch {
        return null
      }
    },
  }
}
