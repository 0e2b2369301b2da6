// A pass's code as the door reads it (door-design.md, Pass codes): `TKT1.<payload>.<signature>`,
// the payload base64url of the JSON {e, t, a, v}, the signature Ed25519 over the ASCII bytes of
// `TKT1.<payload>`. Parsing is pure; verifying takes the manifest's public key through WebCrypto,
// so a scanner needs nothing else to tell a real pass from a forged or altered one.

import {
  MAX_CODE_LENGTH,
  PASS_CODE_PREFIX,
  type PassClaim,
  passClaimOf,
  passIdOf,
} from '../../../../contracts/pass-code.ts'

export type PassCode = {
  claim: PassClaim
  /** `${ticketId}.${admission}.${version}`, the pass's id in the manifest and the ticket's passes */
  passId: string
  /** the bytes the signature is over */
  signed: Uint8Array<ArrayBuffer>
  signature: Uint8Array<ArrayBuffer>
}

const BASE64URL = /^[A-Za-z0-9_-]*$/
const ED25519_SIGNATURE_BYTES = 64

/** base64url without padding to bytes, or null when it is not that */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/')
  let binary: string
  try {
    binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  } catch {
    return null
  }
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/**
 * The pass a code names, or null when the text is not a pass code at all (another QR code, a
 * typo, a truncated paste). Surrounding whitespace is ignored; nothing is verified yet.
 */
export function parsePassCode(text: string): PassCode | null {
  const code = text.trim()
  if (code.length === 0 || code.length > MAX_CODE_LENGTH) return null
  const parts = code.split('.')
  if (parts.length !== 3 || parts[0] !== PASS_CODE_PREFIX) return null
  const [, payload = '', signatureText = ''] = parts
  const payloadBytes = fromBase64Url(payload)
  const signature = fromBase64Url(signatureText)
  if (!payloadBytes || payloadBytes.length === 0 || signature?.length !== ED25519_SIGNATURE_BYTES) return null
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payloadBytes))
  } catch {
    return null
  }
  const claim = passClaimOf(json)
  if (!claim) return null
  return {
    claim,
    passId: passIdOf(claim),
    signed: new TextEncoder().encode(`${PASS_CODE_PREFIX}.${payload}`),
    signature,
  }
}

/**
 * The manifest's public key (base64url of the raw 32 bytes) ready to verify with, or null when it
 * is malformed or this browser's WebCrypto has no Ed25519 (then codes are checked against the
 * manifest alone, and the server's answer is the only word on a pass the manifest does not list).
 */
export async function importPassKey(
  publicKey: string,
  subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle,
): Promise<CryptoKey | null> {
  const raw = fromBase64Url(publicKey)
  if (!subtle || raw?.length !== 32) return null
  try {
    return await subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify'])
  } catch {
    return null
  }
}

/** whether the pass's signature is the key's over its bytes */
export async function verifyPassCode(
  code: PassCode,
  key: CryptoKey,
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<boolean> {
  try {
    return await subtle.verify({ name: 'Ed25519' }, key, code.signature, code.signed)
  } catch {
    return false
  }
}
