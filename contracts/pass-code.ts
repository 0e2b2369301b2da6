// A pass's code, as the server signs it and the door reads it (door-design.md, Pass codes):
// `TKT1.<payload>.<signature>`, the payload base64url of the JSON {e, t, a, v} (event, ticket,
// admission, version), the signature Ed25519 over the ASCII bytes of `TKT1.<payload>`. What the
// server (server/checkin/pass-codes.ts, node:crypto) and the scanner (web/src/screens/checkin/
// pass-code.ts, WebCrypto) share: the format's names and the claim's checks.

export const PASS_CODE_PREFIX = 'TKT1'
/** longer texts are never codes (and the scans' schema refuses them) */
export const MAX_CODE_LENGTH = 1000

/** what a pass names: its event, its ticket (order), which admission of it, and the ticket's version */
export type PassClaim = { eventId: string; ticketId: string; admission: number; version: number }

/** `${ticketId}.${admission}.${version}`: a pass's id in the manifest and a ticket's passes */
export const passIdOf = (claim: Pick<PassClaim, 'ticketId' | 'admission' | 'version'>): string =>
  `${claim.ticketId}.${claim.admission}.${claim.version}`

const ID = /^[a-zA-Z0-9_-]{1,64}$/

const isCount = (value: unknown, least: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= least

/** The claim a decoded payload makes, or null when any of its four fields is missing or wrong. */
export function passClaimOf(json: unknown): PassClaim | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null
  const { e, t, a, v } = json as Record<string, unknown>
  if (typeof e !== 'string' || !ID.test(e) || typeof t !== 'string' || !ID.test(t)) return null
  if (!isCount(a, 1) || !isCount(v, 0)) return null
  return { eventId: e, ticketId: t, admission: a, version: v }
}
