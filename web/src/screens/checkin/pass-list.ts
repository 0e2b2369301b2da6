// The manifest (GET /checkin/{eventId}/manifest, door-design.md) as the door looks passes up in it:
// compact arrays, so 50,000 passes stay small on the wire and in IndexedDB, indexed once into maps
// when it arrives.
import type { Manifest } from '../../api/checkin.ts'

export type PassStatus = 'valid' | 'admitted' | 'void'

export type ListedPass = {
  status: PassStatus
  /** when it was first admitted, in ms, when it was */
  admittedAt: number | null
  ticketType: string | null
  holder: string | null
  /** a seated pass's seat as the door shows it ("Stalls, Row F, Seat 12"), when it has one */
  seat?: string
}

export type PassList = {
  eventId: string
  title: string
  publicKey: string
  /** when the door opens (ISO), if the manifest says */
  opensAt: string | null
  generatedAt: string
  position: number
  passes: Map<string, ListedPass>
  voided: Set<string>
  /** each ticket's current version and its number of admissions, as the manifest lists them */
  tickets: Map<string, { version: number; admissions: number }>
}

const STATUSES: readonly PassStatus[] = ['valid', 'admitted', 'void']

/** the parts of a pass id (`${ticketId}.${admission}.${version}`), or null */
function partsOf(passId: string): { ticketId: string; admission: number; version: number } | null {
  const match = /^(.+)\.(\d+)\.(\d+)$/.exec(passId)
  if (!match) return null
  return { ticketId: match[1] ?? '', admission: Number(match[2]), version: Number(match[3]) }
}

export function passListOf(manifest: Manifest): PassList {
  const passes = new Map<string, ListedPass>()
  const tickets = new Map<string, { version: number; admissions: number }>()
  for (const [passId, status, admittedAt, typeIndex, holder] of manifest.passes) {
    const seat = manifest.seats?.[passId]
    passes.set(passId, {
      status: STATUSES[status] ?? 'void',
      admittedAt,
      ticketType: manifest.ticketTypes[typeIndex] ?? null,
      holder,
      ...(seat ? { seat } : {}),
    })
    const parts = partsOf(passId)
    if (!parts) continue
    const known = tickets.get(parts.ticketId)
    if (!known || parts.version > known.version)
      tickets.set(parts.ticketId, { version: parts.version, admissions: parts.admission })
    else if (parts.version === known.version) known.admissions = Math.max(known.admissions, parts.admission)
  }
  return {
    eventId: manifest.eventId,
    title: manifest.title,
    publicKey: manifest.publicKey,
    opensAt: manifest.opensAt ?? null,
    generatedAt: manifest.generatedAt,
    position: manifest.position,
    passes,
    voided: new Set(manifest.voided),
    tickets,
  }
}
