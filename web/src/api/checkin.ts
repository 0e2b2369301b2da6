// Calls of the door (issue 16, door-design.md): a ticket's passes, the scans a check-in screen
// sends, the manifest it works offline from, the event's door staff (invited by e-mail), an
// account's own invitations, and the organizer's check-in summary. The replies are checked against the shapes of the design as this client reads them.
import * as v from 'valibot'
import { SeatLabel } from '../../../contracts/seating.ts'
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
  /** a seated order's pass: its seat (issue 40) */
  seat: v.optional(SeatLabel),
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
  /** a seated pass's seat for the admission scanned (issue 40); none for an unseated one */
  seat: v.optional(SeatLabel),
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
  /** a seated event's seats by pass id, as the door shows them ("Stalls, Row F, Seat 12") */
  seats: v.optional(v.record(v.string(), v.string())),
})
export type Manifest = v.InferOutput<typeof Manifest>

export const InvitationStatus = v.picklist(['invited', 'accepted'])

/**
 * One invitation to an event's door staff: the e-mail invited, and the account's name once it
 * accepted (until then nothing says whether the e-mail has an account).
 */
export const DoorStaffMember = v.object({
  _id: v.string(),
  email: v.string(),
  status: InvitationStatus,
  invitedAt: v.string(),
  acceptedAt: When,
  accountId: v.nullish(v.string(), null),
  username: v.nullish(v.string(), null),
})
export type DoorStaffMember = v.InferOutput<typeof DoorStaffMember>

/** an invitation to an event's door staff, as the account it is for sees it */
export const DoorInvitation = v.object({
  _id: v.string(),
  eventId: v.string(),
  title: v.string(),
  date: v.string(),
  time: v.string(),
  location: v.string(),
  organizer: v.nullish(v.string(), null),
  status: InvitationStatus,
  invitedAt: v.string(),
  acceptedAt: When,
})
export type DoorInvitation = v.InferOutput<typeof DoorInvitation>

const Message = v.object({ message: v.string() })

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

/** invites this e-mail to the door staff (the same answer for any address): the server's words */
export const inviteDoorStaff = async (eventId: string, email: string): Promise<string> =>
  v.parse(Message, await api.post<unknown>(`/checkin/${path(eventId)}/door-staff`, { email })).message

/** withdraws an invitation, or removes the member who accepted it */
export const removeDoorStaff = async (eventId: string, invitationId: string): Promise<void> => {
  await api.delete<unknown>(`/checkin/${path(eventId)}/door-staff/${path(invitationId)}`)
}

/** the signed-in account's invitations to door staff, pending and accepted */
export const fetchInvitations = async (): Promise<DoorInvitation[]> =>
  v.parse(v.array(DoorInvitation), await api.get<unknown>('/checkin/invitations'))

/** accepts an invitation: the server's words */
export const acceptInvitation = async (invitationId: string): Promise<string> =>
  v.parse(Message, await api.post<unknown>(`/checkin/invitations/${path(invitationId)}/accept`)).message

/** declines an invitation, or leaves the door staff: the server's words */
export const declineInvitation = async (invitationId: string): Promise<string> =>
  v.parse(Message, await api.delete<unknown>(`/checkin/invitations/${path(invitationId)}`)).message

export const fetchCheckinSummary = async (eventId: string): Promise<CheckinSummary> =>
  v.parse(CheckinSummary, await api.get<unknown>(`/checkin/${path(eventId)}/summary`))
