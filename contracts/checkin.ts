// The door (issue 16, door-design.md): a ticket's passes, the scans a check-in screen sends and the
// server's answers, the manifest it works offline from, the event's door staff and its check-in
// summary (whose live push is contracts/live.ts's CheckinSummaryPush).
import * as v from 'valibot'
import { Email, isInstant, PathParams } from './common.ts'
import { SeatLabel } from './seating.ts'

export const PassStatus = v.picklist(['valid', 'admitted', 'void'])

/** one admission of a ticket: the code its QR carries, and whether it was used */
export const TicketPass = v.object({
  _id: v.string(),
  admission: v.number(),
  code: v.string(),
  status: PassStatus,
  admittedAt: v.nullable(v.string()),
  /** a seated ticket's seat for this admission (issue 40) */
  seat: v.optional(SeatLabel),
})
export const TicketPassList = v.array(TicketPass)
export type TicketPass = v.InferOutput<typeof TicketPass>

/** the most scans one request carries */
export const SCANS_PER_REQUEST = 500

export const ScanInput = v.object(
  {
    code: v.pipe(
      v.string('A scan needs the code read.'),
      v.maxLength(1000, 'A pass code is 1000 characters or fewer.'),
    ),
    scannedAt: v.pipe(
      v.string('A scan needs the time it was made (scannedAt).'),
      v.maxLength(40, 'scannedAt must be an ISO time such as 2030-01-01T18:00:00.000Z.'),
      v.check(
        // a real day and hour: Date reads 2030-02-30 as 2 March and T24:00 as the next day
        (text) => /^\d{4}-\d\d-\d\dT([01]\d|2[0-3]):[0-5]\d/.test(text) && isInstant(text),
        'scannedAt must be an ISO time such as 2030-01-01T18:00:00.000Z.',
      ),
    ),
    device: v.pipe(
      v.string('A scan needs the device that made it.'),
      v.minLength(1, 'A scan needs the device that made it.'),
      v.maxLength(100, 'A device name is 100 characters or fewer.'),
      // kept in the read models (PostgreSQL's text takes no NUL) and shown to the organizer
      v.regex(/^[^\p{Cc}]*$/u, 'A device name is printable text.'),
    ),
  },
  'Each scan is an object with code, scannedAt and device.',
)
export type ScanInput = v.InferOutput<typeof ScanInput>

export const ScansBody = v.object({
  scans: v.pipe(
    v.array(ScanInput, 'Send the scans as a list.'),
    v.minLength(1, 'Send one scan or more.'),
    v.maxLength(SCANS_PER_REQUEST, `Send ${SCANS_PER_REQUEST} scans or fewer in one request.`),
  ),
})

export const SCAN_RESULTS = [
  'admitted',
  'already-admitted',
  'void',
  'invalid',
  'wrong-event',
  /** made before the door opened (CHECKIN_OPENS_HOURS before the start): no one admitted */
  'too-early',
] as const
export type ScanResult = (typeof SCAN_RESULTS)[number]

/** the server's decision on one scan, in the order the scans were sent */
export const ScanReply = v.object({
  code: v.string(),
  result: v.picklist(SCAN_RESULTS),
  /** when the admission was first let in; null if never */
  admittedAt: v.nullable(v.string()),
  /** the device of the scan answered */
  device: v.string(),
  /** when the code named a real ticket of this event */
  ticketType: v.nullable(v.string()),
  holder: v.nullable(v.string()),
  /** a seated ticket's seat for this admission (issue 40) */
  seat: v.optional(SeatLabel),
})
export type ScanReply = v.InferOutput<typeof ScanReply>
export const ScanReplyList = v.array(ScanReply)

/** a pass in the manifest: [passId, status 0 valid | 1 admitted | 2 void, admittedAt ms | null, ticket type index, holder] */
export type ManifestPass = [string, 0 | 1 | 2, number | null, number, string | null]

/**
 * What a scanner needs offline: the public key, the voided pass ids (older versions of transferred
 * tickets) and every pass of the current versions, compact, so 50,000 passes stay small.
 */
export const Manifest = v.object({
  eventId: v.string(),
  title: v.string(),
  publicKey: v.string(),
  /** when the door opens (ISO): a scan before then is too early */
  opensAt: v.string(),
  generatedAt: v.string(),
  /** the ledger's head it is as of */
  position: v.number(),
  voided: v.array(v.string()),
  passes: v.array(
    v.tuple([v.string(), v.picklist([0, 1, 2]), v.nullable(v.number()), v.number(), v.nullable(v.string())]),
  ),
  ticketTypes: v.array(v.string()),
  /** a seated event's seats by pass id, as the door shows them ("Stalls, Row F, Seat 12") */
  seats: v.optional(v.record(v.string(), v.string())),
})
export type Manifest = v.InferOutput<typeof Manifest>

export const InvitationStatus = v.picklist(['invited', 'accepted'])

/**
 * One invitation to an event's door staff, as its organizer sees it: the e-mail invited, and the
 * account only once it accepted (until then nothing says whether the e-mail has one).
 */
export const DoorStaffMember = v.object({
  /** the invitation's id (DELETE /checkin/{eventId}/door-staff/{_id} withdraws or removes it) */
  _id: v.string(),
  email: v.string(),
  status: InvitationStatus,
  invitedAt: v.string(),
  acceptedAt: v.nullable(v.string()),
  accountId: v.nullable(v.string()),
  username: v.nullable(v.string()),
})
export type DoorStaffMember = v.InferOutput<typeof DoorStaffMember>
export const DoorStaffList = v.array(DoorStaffMember)

/** POST /checkin/{eventId}/door-staff: invites this e-mail (the same answer for any) */
export const AddDoorStaffBody = v.object({ email: Email })

/** An invitation to door staff, as the account it is for sees it (GET /checkin/invitations). */
export const DoorInvitation = v.object({
  _id: v.string(),
  eventId: v.string(),
  title: v.string(),
  date: v.string(),
  time: v.string(),
  location: v.string(),
  /** the event's organizer's name */
  organizer: v.nullable(v.string()),
  status: InvitationStatus,
  invitedAt: v.string(),
  acceptedAt: v.nullable(v.string()),
})
export type DoorInvitation = v.InferOutput<typeof DoorInvitation>
export const DoorInvitationList = v.array(DoorInvitation)

export const AcceptInvitationReply = v.object({ message: v.string(), eventId: v.string() })

export const CheckinSummary = v.object({
  eventId: v.string(),
  ticketTypes: v.array(v.object({ ticketType: v.string(), admitted: v.number(), expected: v.number() })),
  /** minute: 'YYYY-MM-DDTHH:MM' (UTC) */
  perMinute: v.array(v.object({ minute: v.string(), admitted: v.number() })),
  doubleEntries: v.array(
    v.object({
      passId: v.string(),
      device: v.string(),
      scannedAt: v.string(),
      firstDevice: v.nullable(v.string()),
      firstAdmittedAt: v.nullable(v.string()),
      holder: v.nullable(v.string()),
    }),
  ),
})
export type CheckinSummary = v.InferOutput<typeof CheckinSummary>

const EventId = v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Event not found.'))
export const CheckinParams = PathParams({ eventId: EventId })
export const DoorStaffParams = PathParams({
  eventId: EventId,
  invitationId: v.pipe(
    v.string(),
    v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'This account is not door staff of this event.'),
  ),
})
export const InvitationParams = v.object({
  invitationId: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Invitation not found.')),
})
