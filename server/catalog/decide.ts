// Pure decisions about one event's stream: submission, the admin's review, its door staff, its
// promo codes, the organizer's changes and its cancellation.
import {
  type ApprovalStatus,
  SALES_END_AFTER_START,
  STATE_NEEDED_FOR_TAX,
  type TicketTypeName,
} from '../../contracts/catalog.ts'
import { type Box, PLAN_MOVES_TAKEN_SEATS } from '../../contracts/seating.ts'
import { conflict, forbidden, invalid, notFound, seatsConflict } from '../errors.ts'
import type { Decider } from '../ledger/decider.ts'
import { seatStatusChanges, seatsForSale, seatsRemoved, takenSeatsMoved } from '../seating/plan.ts'
import { instantIn } from '../wall-clock.ts'
import type { CatalogFact, EventEdited, EventSubmitted, PlanSection, PromoCodeCreated } from './facts.ts'

export type EventDetails = Required<EventEdited['data']['details']>
export type TicketTypeState = EventSubmitted['data']['ticketTypes'][number]

export type EventState = {
  status: ApprovalStatus | null
  organizerId: string | null
  /** its door staff: the invitations pending and accepted, by invitation id */
  door: Readonly<Record<string, DoorInvitation>>
  /** its promo codes (upper-case), and whether each is disabled */
  promoCodes: Readonly<Record<string, { disabled: boolean }>>
  /** what the organizer set, as of now (null before it is submitted) */
  details: EventDetails | null
  ticketTypes: readonly TicketTypeState[]
  cancelled: boolean
  /** its seat map (issue 40), null while it has none */
  seatMap: SeatPlan | null
  seatMapVersion: number
}

/** an event's seat map: the stage and the sections of its seated ticket types */
export type SeatPlan = { stage: Box | null; sections: PlanSection[] }

/**
 * An invitation to an event's door staff: for an e-mail address (null: one made for an account
 * before invitations existed), bound to the account that accepted it (or it was made for).
 */
export type DoorInvitation = { email: string | null; accountId: string | null; accepted: boolean }

/** A ticket type as the organizer sends it in a change: its name, price and capacity. */
/** taxRate absent: a kept type keeps its rate (a client that knows nothing of GST changes none) */
export type TicketTypeChange = {
  type: TicketTypeName
  pricePaise: number
  quantity: number
  taxRate?: number
}

export type EventCommand =
  /** now: ISO; the event's start is judged against it in timeZone */
  | { type: 'Submit'; event: EventSubmitted['data']; now: string; timeZone: string }
  | { type: 'Review'; eventId: string; decision: 'Approved' | 'Rejected'; by: string; reason?: string }
  /**
   * An e-mail invited to the door staff: a pending invitation to it is sent again, an accepted one
   * stays as it is (nothing happens). invitationId: the id a new invitation takes.
   */
  | { type: 'InviteDoorStaff'; eventId: string; invitationId: string; email: string; by: string }
  /** the account with this e-mail (and id) accepts the invitation (accepted already: nothing happens) */
  | { type: 'AcceptDoorStaff'; eventId: string; invitationId: string; accountId: string; email: string }
  /** the organizer withdraws an invitation or removes its member */
  | { type: 'RemoveDoorStaff'; eventId: string; invitationId: string; by: string }
  /** the account with this e-mail (and id) declines the invitation, or leaves the door staff */
  | { type: 'LeaveDoorStaff'; eventId: string; invitationId: string; accountId: string; email: string }
  | { type: 'CreatePromoCode'; promo: PromoCodeCreated['data'] }
  /** disabling a disabled code: nothing happens */
  | { type: 'DisablePromoCode'; eventId: string; code: string; by: string }
  | {
      type: 'Edit'
      eventId: string
      by: string
      details: Partial<EventDetails>
      ticketTypes?: TicketTypeChange[]
      /** seats sold or held per ticket type id, read under the write lock */
      taken: Readonly<Record<string, number>>
      /** an id for each ticket type the change adds */
      newId: () => string
      /** ISO; the event's start is judged against it in timeZone */
      now: string
      timeZone: string
    }
  | {
      type: 'Cancel'
      eventId: string
      by: string
      asAdmin: boolean
      reason: string
      now: string
      timeZone: string
    }
  /**
   * The organizer saves the seat map (placed and checked by seating/plan.ts's placePlan): `taken`,
   * the seats held or sold now, read under the event's lock, may not move or vanish.
   */
  | {
      type: 'PlaceSeatMap'
      eventId: string
      by: string
      plan: SeatPlan
      /** the seats the plan gave no place (drawn where the layout puts them): see takenSeatsMoved */
      laidOut?: ReadonlySet<string>
      taken: readonly string[]
      /** the tickets each section's ticket type has sold or held (seated or by count) */
      takenOfTypes: Readonly<Record<string, number>>
      now: string
      timeZone: string
    }

export const EVENT_NOT_FOUND = 'Event not found.'
export const DATE_IN_PAST = 'The date cannot be in the past.'
export const TIME_IN_PAST = 'The time cannot be in the past.'
export const NOT_DOOR_STAFF = 'This account is not door staff of this event.'
export const INVITATION_NOT_FOUND = 'Invitation not found.'
/**
 * The invitations an event may have, pending and accepted: every decision on the event reads its
 * whole stream, and a door needs a few dozen people at most.
 */
export const MAX_DOOR_STAFF = 100
export const TOO_MANY_DOOR_STAFF = `An event has at most ${MAX_DOOR_STAFF} door staff and invitations: remove some first.`
export const PROMO_CODE_TAKEN = 'This event has a promo code with that name already.'
export const PROMO_CODE_NOT_FOUND = 'Promo code not found.'
export const EVENT_CANCELLED = 'This event has been cancelled.'
export const NOT_YOUR_EVENT = 'You can only change your own events.'

/** when the event starts, as an instant (ISO) */
const startOf = (details: Pick<EventDetails, 'date' | 'time'>, timeZone: string) =>
  instantIn(details.date, details.time, timeZone).toISOString()

/**
 * An event may only be set to start after now, judged in its zone: a start on a day before today
 * is refused naming the date, one earlier today naming the time.
 */
function refuseStartGoneBy(details: Pick<EventDetails, 'date' | 'time'>, now: string, timeZone: string) {
  if (startOf(details, timeZone) > now) return
  const today = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(now))
  if (details.date < today) throw invalid(DATE_IN_PAST, [{ field: 'date', message: DATE_IN_PAST }])
  throw invalid(TIME_IN_PAST, [{ field: 'time', message: TIME_IN_PAST }])
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

export const eventDecider: Decider<EventState, EventCommand, CatalogFact> = {
  // Every seat map saved is a whole plan on the stream (up to 100,000 seats): a decision reads the
  // state kept after the last one, not every plan again. Change the kind with EventState, evolve or
  // the catalogue's upcasters (facts.ts): the states kept before are then not read.
  snapshot: { kind: 'event-1', after: new Set(['SeatMapPlaced']), every: 64 },
  initialState: () => ({
    status: null,
    organizerId: null,
    door: {},
    promoCodes: {},
    details: null,
    ticketTypes: [],
    cancelled: false,
    seatMap: null,
    seatMapVersion: 0,
  }),

  evolve(state, fact) {
    switch (fact.type) {
      case 'EventSubmitted': {
        const { title, description, date, time, location, category, images, videos } = fact.data
        return {
          ...state,
          status: 'Pending',
          organizerId: fact.data.organizerId,
          details: {
            title,
            description,
            date,
            time,
            location,
            category,
            images,
            videos,
            salesEnd: fact.data.salesEnd ?? null,
            state: fact.data.state ?? null,
            pricesIncludeTax: fact.data.pricesIncludeTax ?? true,
          },
          ticketTypes: fact.data.ticketTypes,
        }
      }
      case 'EventEdited':
        return {
          ...state,
          details: state.details && { ...state.details, ...fact.data.details },
          ticketTypes: fact.data.ticketTypes ?? state.ticketTypes,
        }
      case 'EventCancelled':
        return { ...state, cancelled: true }
      case 'EventApproved':
        return { ...state, status: 'Approved' }
      case 'EventRejected':
        return { ...state, status: 'Rejected' }
      case 'DoorStaffAdded': {
        const { accountId } = fact.data
        return { ...state, door: { ...state.door, [accountId]: { email: null, accountId, accepted: false } } }
      }
      case 'DoorStaffInvited': {
        const { invitationId, email } = fact.data
        if (state.door[invitationId]) return state
        return {
          ...state,
          door: { ...state.door, [invitationId]: { email, accountId: null, accepted: false } },
        }
      }
      case 'DoorStaffAccepted': {
        const { invitationId, accountId } = fact.data
        const invitation = state.door[invitationId]
        if (!invitation) return state
        return {
          ...state,
          door: { ...state.door, [invitationId]: { ...invitation, accountId, accepted: true } },
        }
      }
      case 'DoorStaffRemoved': {
        const { [fact.data.invitationId]: _gone, ...door } = state.door
        return { ...state, door }
      }
      case 'PromoCodeCreated':
        return { ...state, promoCodes: { ...state.promoCodes, [fact.data.code]: { disabled: false } } }
      case 'PromoCodeDisabled':
        return { ...state, promoCodes: { ...state.promoCodes, [fact.data.code]: { disabled: true } } }
      case 'SeatMapPlaced': {
        const { stage, sections, capacities, version } = fact.data
        return {
          ...state,
          seatMap: { stage, sections },
          seatMapVersion: version,
          ticketTypes: state.ticketTypes.map((t) =>
            capacities[t.ticketTypeId] === undefined
              ? t
              : { ...t, quantity: capacities[t.ticketTypeId] as number },
          ),
        }
      }
      default:
        return fact satisfies never
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'Submit': {
        if (state.status) throw conflict('This event exists already.')
        refuseStartGoneBy(command.event, command.now, command.timeZone)
        refuseTaxWithoutState(command.event.state ?? null, command.event.ticketTypes)
        return [{ type: 'EventSubmitted', data: command.event }]
      }
      case 'Review': {
        if (!state.status || !state.organizerId) throw notFound(EVENT_NOT_FOUND)
        if (state.cancelled) throw conflict(EVENT_CANCELLED)
        if (state.status === command.decision) {
          throw conflict(
            `This event is already ${command.decision === 'Approved' ? 'approved' : 'rejected'}.`,
          )
        }
        const data = {
          eventId: command.eventId,
          organizerId: state.organizerId,
          by: command.by,
          ...(command.reason ? { reason: command.reason } : {}),
        }
        return [
          command.decision === 'Approved'
            ? { type: 'EventApproved', data }
            : { type: 'EventRejected', data: { ...data, wasApproved: state.status === 'Approved' } },
        ]
      }
      case 'InviteDoorStaff':
      case 'AcceptDoorStaff':
      case 'RemoveDoorStaff':
      case 'LeaveDoorStaff':
        return decideDoorStaff(command, state)
      case 'CreatePromoCode': {
        if (!state.status) throw notFound(EVENT_NOT_FOUND)
        if (state.promoCodes[command.promo.code]) throw conflict(PROMO_CODE_TAKEN)
        return [{ type: 'PromoCodeCreated', data: command.promo }]
      }
      case 'DisablePromoCode': {
        const promo = state.promoCodes[command.code]
        if (!state.status || !promo) throw notFound(PROMO_CODE_NOT_FOUND)
        if (promo.disabled) return []
        return [
          {
            type: 'PromoCodeDisabled',
            data: { eventId: command.eventId, code: command.code, by: command.by },
          },
        ]
      }
      case 'Edit':
        return decideEdit(command, state)
      case 'Cancel': {
        const { details, organizerId } = state
        if (!state.status || !details || !organizerId) throw notFound(EVENT_NOT_FOUND)
        if (!command.asAdmin && organizerId !== command.by) throw forbidden(NOT_YOUR_EVENT)
        if (state.cancelled) throw conflict('This event is already cancelled.')
        if (command.now >= startOf(details, command.timeZone))
          throw conflict('This event has started, so it can no longer be cancelled.')
        return [
          {
            type: 'EventCancelled',
            data: { eventId: command.eventId, organizerId, by: command.by, reason: command.reason },
          },
        ]
      }
      case 'PlaceSeatMap':
        return decideSeatMap(command, state)
      default:
        return command satisfies never
    }
  },
}

export const SEAT_MAP_NEEDS_SEATS = 'A seated ticket type needs at least one seat for sale.'

/** a ticket type with tickets sold or held by count becomes no section: those tickets have no seat */
export const soldWithoutSeats = (type: string) =>
  `${type} has tickets sold or held without seats, so it cannot become a section of the seat map.`

/**
 * A seat map saved: on an event of this organizer's, not called off nor started, its sections each
 * of one of the event's ticket types; no seat held or sold moves or vanishes (refused naming them).
 * Each seated ticket type's capacity becomes its seats for sale.
 */
function decideSeatMap(
  command: Extract<EventCommand, { type: 'PlaceSeatMap' }>,
  state: EventState,
): CatalogFact[] {
  const { details, organizerId } = state
  if (!state.status || !details || !organizerId) throw notFound(EVENT_NOT_FOUND)
  if (organizerId !== command.by) throw forbidden(NOT_YOUR_EVENT)
  if (state.cancelled) throw conflict(EVENT_CANCELLED)
  if (command.now >= startOf(details, command.timeZone))
    throw conflict('This event has started, so it can no longer be changed.')
  const seated = seatedTypes(state)
  command.plan.sections.forEach((section, s) => {
    const type = state.ticketTypes.find((t) => t.ticketTypeId === section.ticketTypeId)
    if (!type) {
      const message = `Section "${section.name}": no such ticket type on this event.`
      throw invalid(message, [{ field: `sections.${s}.ticketType`, message }])
    }
    if (!seated.has(type.ticketTypeId) && (command.takenOfTypes[type.ticketTypeId] ?? 0) > 0)
      throw conflict(soldWithoutSeats(type.type))
  })
  const moved = takenSeatsMoved(state.seatMap, command.plan, new Set(command.taken), command.laidOut)
  if (moved.length > 0) throw seatsConflict(PLAN_MOVES_TAKEN_SEATS, moved)
  const changes = seatStatusChanges(state.seatMap, command.plan)
  const removed = seatsRemoved(state.seatMap, command.plan)
  const capacities: Record<string, number> = {}
  for (const [ticketTypeId, seats] of seatsForSale(command.plan)) {
    if (seats === 0) {
      const s = command.plan.sections.findIndex((section) => section.ticketTypeId === ticketTypeId)
      throw invalid(SEAT_MAP_NEEDS_SEATS, [{ field: `sections.${s}`, message: SEAT_MAP_NEEDS_SEATS }])
    }
    capacities[ticketTypeId] = seats
  }
  return [
    {
      type: 'SeatMapPlaced',
      data: {
        eventId: command.eventId,
        organizerId,
        by: command.by,
        version: state.seatMapVersion + 1,
        stage: command.plan.stage,
        sections: command.plan.sections,
        capacities,
        ...(changes.length > 0 ? { changes } : {}),
        ...(removed.length > 0 ? { removed } : {}),
      },
    },
  ]
}

/** GST is charged where the event is held: a taxed ticket type needs the event's state */
function refuseTaxWithoutState(state: string | null, types: readonly TicketTypeState[]) {
  if (state === null && types.some((t) => (t.taxRate ?? 0) > 0))
    throw invalid(STATE_NEEDED_FOR_TAX, [{ field: 'state', message: STATE_NEEDED_FOR_TAX }])
}

/** the ticket types that are a section of the event's seat map */
const seatedTypes = (state: EventState) => new Set(state.seatMap?.sections.map((s) => s.ticketTypeId) ?? [])

function decideEdit(command: Extract<EventCommand, { type: 'Edit' }>, state: EventState): CatalogFact[] {
  const { details: before, organizerId } = state
  if (!state.status || !before || !organizerId) throw notFound(EVENT_NOT_FOUND)
  if (organizerId !== command.by) throw forbidden(NOT_YOUR_EVENT)
  if (state.cancelled) throw conflict(EVENT_CANCELLED)
  if (command.now >= startOf(before, command.timeZone))
    throw conflict('This event has started, so it can no longer be changed.')
  const after: EventDetails = { ...before, ...command.details }
  const changed: Partial<EventDetails> = {}
  for (const key of Object.keys(command.details) as Array<keyof EventDetails>) {
    if (!sameJson(before[key], after[key])) Object.assign(changed, { [key]: after[key] })
  }
  if (changed.date !== undefined || changed.time !== undefined)
    refuseStartGoneBy(after, command.now, command.timeZone)
  if (after.salesEnd !== null && after.salesEnd > `${after.date}T${after.time}`)
    throw invalid(SALES_END_AFTER_START, [{ field: 'salesEnd', message: SALES_END_AFTER_START }])

  let ticketTypes: TicketTypeState[] | undefined
  if (command.ticketTypes) {
    const seated = seatedTypes(state)
    const next = command.ticketTypes.map((asked): TicketTypeState => {
      const kept = state.ticketTypes.find((t) => t.type.toLowerCase() === asked.type.toLowerCase())
      // a seated type's capacity is its seats for sale: the seat map sets it, not the form
      const sized = kept && seated.has(kept.ticketTypeId) ? { ...asked, quantity: kept.quantity } : asked
      const taxRate = asked.taxRate ?? kept?.taxRate
      const wanted = { ...sized, ...(taxRate ? { taxRate } : {}) }
      if (!taxRate) delete wanted.taxRate
      const taken = kept ? (command.taken[kept.ticketTypeId] ?? 0) : 0
      if (wanted.quantity < taken) {
        const message = `${wanted.type} cannot have fewer than ${taken} seats: that many are sold or held.`
        throw conflict(message)
      }
      return { ticketTypeId: kept?.ticketTypeId ?? command.newId(), ...wanted }
    })
    for (const old of state.ticketTypes) {
      if (next.some((t) => t.ticketTypeId === old.ticketTypeId)) continue
      if (seated.has(old.ticketTypeId))
        throw conflict(`${old.type} is a section of the seat map, so it cannot be removed.`)
      if ((command.taken[old.ticketTypeId] ?? 0) > 0)
        throw conflict(`${old.type} has seats sold or held, so it cannot be removed.`)
    }
    if (!sameJson(next, state.ticketTypes)) ticketTypes = next
  }
  refuseTaxWithoutState(after.state, ticketTypes ?? state.ticketTypes)
  if (Object.keys(changed).length === 0 && !ticketTypes) return []
  const moved =
    state.status === 'Approved' &&
    (changed.date !== undefined || changed.time !== undefined || changed.location !== undefined)
  return [
    {
      type: 'EventEdited',
      data: {
        eventId: command.eventId,
        organizerId,
        by: command.by,
        details: changed,
        ...(ticketTypes ? { ticketTypes } : {}),
        ...(moved ? { moved: { date: before.date, time: before.time, location: before.location } } : {}),
      },
    },
  ]
}

type DoorStaffCommand = Extract<
  EventCommand,
  { type: 'InviteDoorStaff' | 'AcceptDoorStaff' | 'RemoveDoorStaff' | 'LeaveDoorStaff' }
>

/** whether the account with this id and e-mail is the one an invitation is for */
const isFor = (invitation: DoorInvitation, accountId: string, email: string) =>
  invitation.accountId === null
    ? invitation.email === email.toLowerCase()
    : invitation.accountId === accountId

/**
 * An event's door staff: invitations by e-mail, accepted by the account that has the address (or,
 * for one made before invitations, the account it named), withdrawn, declined, left. Nothing here
 * says whether an address has an account: the organizer learns who accepted, and nothing else.
 */
function decideDoorStaff(command: DoorStaffCommand, state: EventState): CatalogFact[] {
  if (!state.status) throw notFound(EVENT_NOT_FOUND)
  const { eventId, invitationId } = command
  switch (command.type) {
    case 'InviteDoorStaff': {
      const email = command.email.toLowerCase()
      const [sameId, same] = Object.entries(state.door).find(([, i]) => i.email === email) ?? []
      if (same?.accepted) return []
      if (!sameId && Object.keys(state.door).length >= MAX_DOOR_STAFF) throw conflict(TOO_MANY_DOOR_STAFF)
      return [
        {
          type: 'DoorStaffInvited',
          data: { eventId, invitationId: sameId ?? invitationId, email, by: command.by },
        },
      ]
    }
    case 'AcceptDoorStaff': {
      const invitation = state.door[invitationId]
      if (!invitation || !isFor(invitation, command.accountId, command.email))
        throw notFound(INVITATION_NOT_FOUND)
      if (invitation.accepted) return []
      return [{ type: 'DoorStaffAccepted', data: { eventId, invitationId, accountId: command.accountId } }]
    }
    case 'RemoveDoorStaff': {
      const invitation = state.door[invitationId]
      if (!invitation) throw notFound(NOT_DOOR_STAFF)
      return [
        {
          type: 'DoorStaffRemoved',
          data: { eventId, invitationId, accountId: invitation.accountId, by: command.by },
        },
      ]
    }
    case 'LeaveDoorStaff': {
      const invitation = state.door[invitationId]
      if (!invitation || !isFor(invitation, command.accountId, command.email))
        throw notFound(INVITATION_NOT_FOUND)
      return [
        {
          type: 'DoorStaffRemoved',
          data: { eventId, invitationId, accountId: command.accountId, by: command.accountId },
        },
      ]
    }
    default:
      return command satisfies never
  }
}
