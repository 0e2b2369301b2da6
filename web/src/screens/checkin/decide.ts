// The door's own decision on a scan, made at once and with no network (door-design.md, Deciding a
// scan, step by step as the server takes it): the code's form and signature, its event, whether the
// door is open yet, then the manifest's word on the pass and what this device admitted since. The server's answer, when the
// scan is synced, replaces it.
import type { ScanResult } from '../../api/checkin.ts'
import type { PassCode } from './pass-code.ts'
import type { PassList } from './pass-list.ts'

/**
 * A server result, or `unchecked`: this device cannot tell (it has no manifest yet, or cannot check
 * signatures and the manifest does not list the pass). Only the server can answer then.
 */
export type LocalResult = ScanResult | 'unchecked'

export type Decision = {
  result: LocalResult
  passId: string | null
  admission: number | null
  holder: string | null
  ticketType: string | null
  /** a seated pass's seat, as the manifest lists it ("Stalls, Row F, Seat 12"), when it has one */
  seat?: string
  /** when the pass was first admitted (now, for one admitted by this scan), if known */
  admittedAt: string | null
}

export type DecideInput = {
  /** the event this door admits to */
  eventId: string
  /** the parsed code, or null when the text is no pass code */
  code: PassCode | null
  /** whether the signature is the manifest key's; null when it could not be checked */
  signatureValid: boolean | null
  list: PassList | null
  /** the passes this device knows were admitted (by itself, or by others as the server said) */
  admittedHere: ReadonlyMap<string, string>
  /** the scan's instant (ISO) */
  now: string
}

const earliest = (...instants: (string | null)[]): string | null =>
  instants.filter((at): at is string => at !== null).sort()[0] ?? null

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

export function decideScan(input: DecideInput): Decision {
  const { code, list } = input
  const refused = (result: LocalResult): Decision => ({
    result,
    passId: null,
    admission: null,
    holder: null,
    ticketType: null,
    admittedAt: null,
  })
  if (!code || input.signatureValid === false) return refused('invalid')
  const { claim, passId } = code
  if (claim.eventId !== input.eventId) return refused('wrong-event')

  const listed = list?.passes.get(passId)
  const decided = (result: LocalResult, admittedAt: string | null = null): Decision => ({
    result,
    passId,
    admission: claim.admission,
    holder: listed?.holder ?? null,
    ticketType: listed?.ticketType ?? null,
    ...(listed?.seat ? { seat: listed.seat } : {}),
    admittedAt,
  })

  // Before the door opens no one is let in, whatever the pass (the server answers so too, by the
  // scan's time: this device's, corrected by the server's when it fetched the manifest).
  if (list?.opensAt && input.now < list.opensAt) return decided('too-early')
  // A cancelled ticket or an older version of a transferred one: void, whatever happened before.
  if (list?.voided.has(passId) || listed?.status === 'void') return decided('void')
  const ticket = list?.tickets.get(claim.ticketId)
  if (!listed && ticket && claim.version < ticket.version) return decided('void')
  if (!listed && ticket && claim.version === ticket.version && claim.admission > ticket.admissions)
    return decided('invalid')

  const seenHere = input.admittedHere.get(passId) ?? null
  const listedAdmitted = listed?.status === 'admitted' ? iso(listed.admittedAt) : null
  if (seenHere !== null || listed?.status === 'admitted')
    return decided('already-admitted', earliest(seenHere, listedAdmitted))
  if (listed) return decided('admitted', input.now)
  // Not in the manifest: a ticket issued or transferred since it was made. The signature says the
  // server issued the pass; without it, only the server can tell.
  return input.signatureValid ? decided('admitted', input.now) : decided('unchecked')
}
