// What the door's reads answer (door-design.md, HTTP): a ticket's passes with their codes, an
// event's manifest for offline scanning, its check-in summary (also what its live push carries) and
// the invitations to its door staff (the organizer's list, an account's own), built from the read
// models and the other areas' queries.
import type {
  CheckinSummary,
  DoorInvitation,
  DoorStaffMember,
  Manifest,
  ManifestPass,
  TicketPass,
} from '../../contracts/checkin.ts'
import { passIdOf } from '../../contracts/pass-code.ts'
import { seatText } from '../../contracts/seating.ts'
import type { AccountQueries } from '../accounts/queries.ts'
import type { OrderRow } from '../booking/queries.ts'
import type { CatalogQueries, EventRow } from '../catalog/queries.ts'
import type { SeatingQueries } from '../seating/queries.ts'
import { holdersOf } from './holders.ts'
import type { DoorOpening } from './opening.ts'
import type { PassSigner } from './pass-codes.ts'
import type { CheckinQueries } from './queries.ts'
import type { PassStatus } from './tables.ts'

const statusIndex: Record<PassStatus, 0 | 1 | 2> = { valid: 0, admitted: 1, void: 2 }

export function checkinViews(parts: {
  checkin: CheckinQueries
  catalog: Pick<CatalogQueries, 'ticketTypesOf' | 'byId'>
  accounts: Pick<AccountQueries, 'byIds'>
  signer: PassSigner
  opening: DoorOpening
  /** the ledger's head: what a manifest is as of */
  head: () => Promise<number>
  /** a seated ticket's seats, one per admission in order (issue 40) */
  seating: Pick<SeatingQueries, 'labelsOf'>
}) {
  const { checkin, catalog, accounts, signer } = parts

  const accountsById = async (ids: string[]) => {
    const found = new Map<string, { username: string; email: string }>()
    const unique = [...new Set(ids)]
    if (unique.length > 0) for (const account of await accounts.byIds(unique)) found.set(account.id, account)
    return found
  }

  /** the event's ticket types in the organizer's order */
  const typesOf = async (eventId: string) => (await catalog.ticketTypesOf([eventId])).get(eventId) ?? []

  return {
    /**
     * A ticket's passes of its current version. A ticket never issued (unpaid, failed) has no pass
     * rows: its admissions are shown void, as a cancelled ticket's are, each with its seat.
     */
    async ticketPasses(order: OrderRow): Promise<TicketPass[]> {
      // A void pass carries no code. A signature says the server issued the pass, and a door that
      // is offline admits a signed code its manifest does not list yet (issued since its last
      // sync): a code signed for a ticket never issued (an unpaid checkout) would let anyone in.
      const [rows, seatsOf] = await Promise.all([
        checkin.passesOfTicket(order.id),
        parts.seating.labelsOf([order.id]),
      ])
      const seats = seatsOf.get(order.id) ?? []
      const seatOf = (admission: number) => (seats[admission - 1] ? { seat: seats[admission - 1] } : {})
      if (rows.length === 0) {
        return Array.from({ length: order.quantity }, (_, i) => ({
          _id: passIdOf({ ticketId: order.id, admission: i + 1, version: 0 }),
          admission: i + 1,
          code: '',
          status: 'void' as const,
          admittedAt: null,
          ...seatOf(i + 1),
        }))
      }
      return rows.map((row) => ({
        _id: row.id,
        admission: row.admission,
        code:
          row.status === 'void'
            ? ''
            : signer.codeOf({
                eventId: row.eventId,
                ticketId: row.orderId,
                admission: row.admission,
                version: row.version,
              }),
        status: row.status,
        admittedAt: row.admittedAt,
        ...seatOf(row.admission),
      }))
    },

    /** Everything a scanner needs offline, as of the ledger's head read first. */
    async manifest(event: EventRow): Promise<Manifest> {
      const position = await parts.head()
      const [types, rows] = await Promise.all([typesOf(event.id), checkin.passesOfEvent(event.id)])
      const typeIndex = new Map(types.map((t, i) => [t.id, i]))
      const holders = await holdersOf(
        accounts,
        rows.map((r) => r.ownerId),
      )
      const seatsOf = await parts.seating.labelsOf(rows.map((r) => r.orderId))
      const seats: Record<string, string> = {}
      const voided: string[] = []
      const listed = rows.map((row): ManifestPass => {
        const seat = seatsOf.get(row.orderId)?.[row.admission - 1]
        if (seat) seats[row.id] = seatText(seat)
        for (let version = 0; version < row.version; version++) {
          voided.push(passIdOf({ ticketId: row.orderId, admission: row.admission, version }))
        }
        return [
          row.id,
          statusIndex[row.status],
          row.admittedAt ? Date.parse(row.admittedAt) : null,
          typeIndex.get(row.ticketTypeId) ?? -1,
          holders.get(row.ownerId) ?? null,
        ]
      })
      return {
        eventId: event.id,
        title: event.title,
        publicKey: signer.publicKey,
        opensAt: parts.opening(event),
        generatedAt: new Date().toISOString(),
        position,
        voided,
        passes: listed,
        ticketTypes: types.map((t) => t.type),
        ...(Object.keys(seats).length > 0 ? { seats } : {}),
      }
    },

    /** Admitted and expected per ticket type, admissions per minute, the latest double entries. */
    async summary(eventId: string): Promise<CheckinSummary> {
      const [types, admitted, expected, perMinute, doubles] = await Promise.all([
        typesOf(eventId),
        checkin.admitted(eventId),
        checkin.expected(eventId),
        checkin.perMinute(eventId),
        checkin.doubleEntries(eventId),
      ])
      const admittedOf = new Map(admitted.map((r) => [r.ticketTypeId, r.admitted]))
      const expectedOf = new Map(expected.map((r) => [r.ticketTypeId, r.expected]))
      const holders = await holdersOf(
        accounts,
        doubles.flatMap((d) => (d.ownerId ? [d.ownerId] : [])),
      )
      return {
        eventId,
        ticketTypes: types.map((t) => ({
          ticketType: t.type,
          admitted: Number(admittedOf.get(t.id) ?? 0),
          expected: Number(expectedOf.get(t.id) ?? 0),
        })),
        perMinute: perMinute.map((r) => ({ minute: r.minute, admitted: Number(r.admitted) })),
        doubleEntries: doubles.map((d) => ({
          passId: d.passId,
          device: d.device,
          scannedAt: d.scannedAt,
          firstDevice: d.firstDevice,
          firstAdmittedAt: d.firstAdmittedAt,
          holder: d.ownerId ? (holders.get(d.ownerId) ?? null) : null,
        })),
      }
    },

    /**
     * The invitations to the event's door staff, in the order first sent: the e-mail invited (for
     * one made for an account before invitations, that account's), and the account once accepted.
     */
    async doorStaff(eventId: string): Promise<DoorStaffMember[]> {
      const rows = await checkin.doorStaff(eventId)
      const found = await accountsById(rows.flatMap((r) => (r.accountId ? [r.accountId] : [])))
      return rows.flatMap((r): DoorStaffMember[] => {
        const account = r.accountId ? found.get(r.accountId) : undefined
        const email = r.email ?? account?.email
        if (!email) return []
        const accepted = r.status === 'accepted' && account !== undefined
        return [
          {
            _id: r.invitationId,
            email,
            status: r.status,
            invitedAt: r.invitedAt,
            acceptedAt: r.acceptedAt,
            accountId: accepted ? r.accountId : null,
            username: accepted ? (account?.username ?? null) : null,
          },
        ]
      })
    },

    /** The invitations of this account (to its e-mail, or accepted by it), oldest first. */
    async invitationsOf(account: { id: string; email: string }): Promise<DoorInvitation[]> {
      const rows = await checkin.invitationsOf(account.id, account.email)
      const eventOf = new Map<string, EventRow>()
      for (const row of rows) {
        if (eventOf.has(row.eventId)) continue
        const event = await catalog.byId(row.eventId)
        if (event) eventOf.set(row.eventId, event)
      }
      const organizers = await accountsById([...eventOf.values()].map((e) => e.organizerId))
      return rows.flatMap((row): DoorInvitation[] => {
        const event = eventOf.get(row.eventId)
        if (!event) return []
        return [
          {
            _id: row.invitationId,
            eventId: event.id,
            title: event.title,
            date: event.date,
            time: event.time,
            location: event.location,
            organizer: organizers.get(event.organizerId)?.username ?? null,
            status: row.status,
            invitedAt: row.invitedAt,
            acceptedAt: row.acceptedAt,
          },
        ]
      })
    },
  }
}

export type CheckinViews = ReturnType<typeof checkinViews>
