// Calls of the door (issue 16, door-design.md): a ticket's passes, the scans a check-in screen
// sends, the manifest it works offline from, the event's door staff, and the organizer's check-in
// summary. The replies are checked against the shapes of the design as this client reads them.
import * as v from 'valibot'
import { api } from './client.ts'

const path = (id: string) => encodeURIComponent(id)

/** an instant, or null when there is none (never admitted, say) */
const When = v.nullish(v.string(), null)

export const PassStatus = v.picklist(['valid', 'admitted', 'void'])

/** one admission of a ticket: the code its QR carries, and whether it was used */
export const TicketPass = v.object({
  _id: v.string(),
  admission: v.number(),
  code: v.string(),
  status: PassStatus,
  admittedAt: When,
})
export type TicketPass = v.InferOutput<typeof TicketPass>

export const SCAN_RESULTS = [
  'admitted',
  'already-admitted',
  'void',
  'invalid',
  'wrong-event',
  'too-early',
] as const
export type ScanResult = (typeof SCAN_RESULTS)[number]

/** what a check-in screen sends of each scan; the server knows a scan again by all three */
export type Scan = { code: string; scannedAt: string; device: string }

/** the server's decision on one scan, in the order the scans were sent */
export const ScanReply = v.object({
  code: v.string(),
  result: v.picklist(SCAN_RESULTS),
  admittedAt: When,
  device: v.string(),
  ticketType: v.nullish(v.string(), null),
  holder: v.nullish(v.string(), null),
})
export type ScanReply = v.InferOutput<typeof ScanReply>

/** the most scans one POST carries */
export const SCANS_PER_BATCH = 500

/**
 * What a scanner needs offline: the public key, the voided pass ids, and every pass as
 * [passId, status 0 valid | 1 admitted | 2 void, admittedAt ms | null, ticket type index, holder].
 */
export const Manifest = v.object({
  eventId: v.string(),
  title: v.string(),
  publicKey: v.string(),
  /** when the door opens: a scan before then is too early (a manifest kept from before has none) */
  opensAt: v.nullish(v.string(), null),
  generatedAt: v.string(),
  position: v.number(),
  voided: v.array(v.string()),
  passes: v.array(
    v.tuple([
      v.string(),
      v.picklist([0, 1, 2]),
      v.nullable(v.number()),
      v.number(),
      v.nullish(v.string(), null),
    ]),
  ),
  ticketTypes: v.array(v.string()),
})
export type Manifest = v.InferOutput<typeof Manifest>

/** one account that may scan an event's passes */
export const DoorStaffMember = v.object({
  accountId: v.string(),
  username: v.optional(v.string(), ''),
  email: v.string(),
})
export type DoorStaffMember = v.InferOutput<typeof DoorStaffMember>

/** what the organizer sees of an event's door; its live push (contracts/live.ts CheckinSummaryPush)
 * carries the same shape */
export const CheckinSummary = v.object({
  eventId: v.string(),
  ticketTypes: v.array(v.object({ ticketType: v.string(), admitted: v.number(), expected: v.number() })),
  perMinute: v.array(v.object({ minute: v.string(), admitted: v.number() })),
  doubleEntries: v.array(
    v.object({
      passId: v.string(),
      device: v.string(),
      scannedAt: v.string(),
      firstDevice: v.nullish(v.string(), null),
      firstAdmittedAt: When,
      holder: v.nullish(v.string(), null),
    }),
  ),
})
export type CheckinSummary = v.InferOutput<typeof CheckinSummary>

export const fetchPasses = async (ticketId: string): Promise<TicketPass[]> =>
  v.parse(v.array(TicketPass), await api.get<unknown>(`/ticket/${path(ticketId)}/passes`))

/** POST scans: the server's decisions, one per scan and in their order */
export async function sendScans(eventId: string, scans: Scan[]): Promise<ScanReply[]> {
  const replies = v.parse(
    v.array(ScanReply),
    await api.post<unknown>(`/checkin/${path(eventId)}/scans`, { scans }),
  )
  if (replies.length !== scans.length)
    throw new Error(`The server answered ${replies.length} of ${scans.length} scans.`)
  return replies
}

export const fetchManifest = async (eventId: string): Promise<Manifest> =>
  v.parse(Manifest, await api.get<unknown>(`/checkin/${path(eventId)}/manifest`))

export const fetchDoorStaff = async (eventId: string): Promise<DoorStaffMember[]> =>
  v.parse(v.array(DoorStaffMember), await api.get<unknown>(`/checkin/${path(eventId)}/door-staff`))

/** adds the account with this e-mail (404 "No account found with that email." when none) */
export const addDoorStaff = async (eventId: string, email: string): Promise<void> => {
  await api.post<unknown>(`/checkin/${path(eventId)}/door-staff`, { email })
}

export const removeDoorStaff = async (eventId: string, accountId: string): Promise<void> => {
  await api.delete<unknown>(`/checkin/${path(eventId)}/door-staff/${path(accountId)}`)
}

export const fetchCheckinSummary = async (eventId: string): Promise<CheckinSummary> =>
  v.parse(CheckinSummary, await api.get<unknown>(`/checkin/${path(eventId)}/summary`))
