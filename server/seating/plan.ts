// An event's seat plan as the server keeps it (issue 40): the organizer's sections, rows and seats
// checked against the event, each seat given its id and a place to be drawn.
import { createHash } from 'node:crypto'
import { type Box, MAX_PLAN_SEATS, type SeatMapBody, type SeatNumber } from '../../contracts/seating.ts'
import type { Issue } from '../errors.ts'

export type Accessibility = false | 'wheelchair' | 'companion'

export type PlacedSeat = {
  id: string
  number: SeatNumber
  x: number
  y: number
  blocked: boolean
  accessible: Accessibility
}

export type PlanSection = {
  name: string
  ticketTypeId: string
  rows: Array<{ label: string; seats: PlacedSeat[] }>
}

export type Plan = { stage: Box | null; sections: PlanSection[] }

/** a ticket type of the event as a section may name it: `type` is its name */
export type EventTicketType = { id: string; type: string }

/**
 * A plan placed, with the seats whose place the layout gave (no x or no y given): where such a seat
 * is drawn follows the rows around it, so it is not held to its last place (takenSeatsMoved).
 */
export type PlanOutcome = { ok: true; plan: Plan; laidOut: Set<string> } | { ok: false; issues: Issue[] }

/** a seat with where it sits in the plan, as an order or a pass names it */
export type FlatSeat = {
  id: string
  section: string
  ticketTypeId: string
  row: string
  number: SeatNumber
  x: number
  y: number
  blocked: boolean
  accessible: Accessibility
}

const ID_LENGTH = 10
const ID_SPACE = 36n ** BigInt(ID_LENGTH)

/**
 * A seat's id: the same event, section, row and number give the same id whenever the plan is saved.
 * The parts are hashed as a JSON array so no two lists of parts share a text ("a","b c" against
 * "a b","c"); a number 12 and a label "12" are the same seat. The digest is taken modulo 36^10 so
 * every one of the ten base36 characters is evenly spread (its leading digits are not).
 */
export function seatId(eventId: string, section: string, row: string, number: string | number): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([eventId, section, row, String(number)]))
    .digest('hex')
  return (BigInt(`0x${digest}`) % ID_SPACE).toString(36).padStart(ID_LENGTH, '0')
}

/**
 * The most issues one answer lists: a pasted plan of 100,000 seats with every number repeated would
 * otherwise send back 100,000 messages nobody reads.
 */
export const MAX_PLAN_ISSUES = 50

/** how a seat is named to people in a message */
const seatName = (section: string, row: string, number: SeatNumber) =>
  `seat ${number} of row "${row}" in section "${section}"`

/** The section's ticket type: by its id, else by its name whatever the case. */
function ticketTypeOf(named: string, ticketTypes: EventTicketType[]): EventTicketType | 'none' | 'several' {
  const byId = ticketTypes.find((t) => t.id === named)
  if (byId) return byId
  const byName = ticketTypes.filter((t) => t.type.toLowerCase() === named.toLowerCase())
  if (byName.length > 1) return 'several'
  return byName[0] ?? 'none'
}

/**
 * Checks what the schema cannot (names against the event, duplicates, the plan's size) and places
 * every seat. A seat without x takes its index in its row, one without y its row's index counted
 * down the whole plan with an empty row between sections, so a plan drawn by nobody still shows
 * its sections one above the other in the order given.
 */
export function placePlan(
  eventId: string,
  body: SeatMapBody,
  ticketTypes: EventTicketType[],
  // a test's own hash, to meet the collision the real one practically never makes
  idOf: typeof seatId = seatId,
): PlanOutcome {
  const issues: Issue[] = []
  const add = (field: string, message: string) => {
    if (issues.length < MAX_PLAN_ISSUES) issues.push({ field, message })
  }

  const total = body.sections.reduce(
    (sum, section) => sum + section.rows.reduce((n, row) => n + row.seats.length, 0),
    0,
  )
  // before any hashing: the schema bounds the request's size, not its seats
  if (total > MAX_PLAN_SEATS) {
    return {
      ok: false,
      issues: [
        { field: 'sections', message: `A plan has at most ${MAX_PLAN_SEATS} seats; this one has ${total}.` },
      ],
    }
  }

  const sectionNames = new Set<string>()
  const sectionOfType = new Map<string, string>()
  const seatOfId = new Map<string, string>()
  /** the seat drawn at each place: two seats in one place could not be told apart on the map */
  const seatAtPlace = new Map<string, string>()
  const sections: PlanSection[] = []
  const laidOut = new Set<string>()
  let rowIndex = 0

  body.sections.forEach((section, s) => {
    const at = `sections.${s}`
    if (sectionNames.has(section.name.toLowerCase())) {
      add(`${at}.name`, `There is more than one section named "${section.name}".`)
    }
    sectionNames.add(section.name.toLowerCase())

    const type = ticketTypeOf(section.ticketType, ticketTypes)
    let ticketTypeId = ''
    if (type === 'none') {
      add(
        `${at}.ticketType`,
        `Section "${section.name}": no ticket type "${section.ticketType}" on this event.`,
      )
    } else if (type === 'several') {
      add(
        `${at}.ticketType`,
        `Section "${section.name}": more than one ticket type is named "${section.ticketType}"; name it by its id.`,
      )
    } else {
      ticketTypeId = type.id
      const first = sectionOfType.get(type.id)
      if (first !== undefined) {
        add(
          `${at}.ticketType`,
          `Section "${section.name}": ticket type "${type.type}" is already the ticket type of section "${first}"; a ticket type has one section.`,
        )
      } else sectionOfType.set(type.id, section.name)
    }

    const labels = new Set<string>()
    const rows = section.rows.map((row, r) => {
      const rowAt = `${at}.rows.${r}`
      if (labels.has(row.label.toLowerCase())) {
        add(`${rowAt}.label`, `Section "${section.name}": there is more than one row "${row.label}".`)
      }
      labels.add(row.label.toLowerCase())

      const numbers = new Set<string>()
      const seats = row.seats.map((seat, i): PlacedSeat => {
        const seatAt = `${rowAt}.seats.${i}`
        const number = String(seat.number).toLowerCase()
        if (numbers.has(number)) {
          add(
            `${seatAt}.number`,
            `Section "${section.name}", row "${row.label}": there is more than one seat ${seat.number}.`,
          )
        }
        numbers.add(number)

        const id = idOf(eventId, section.name, row.label, seat.number)
        const here = seatName(section.name, row.label, seat.number)
        const holder = seatOfId.get(id)
        // a repeated seat is reported above as a repeated number; only a true collision here
        if (holder !== undefined && holder !== here) {
          add(seatAt, `The ${here} and the ${holder} would get the same id; renumber or rename one of them.`)
        } else seatOfId.set(id, here)

        const x = seat.x ?? i
        const y = seat.y ?? rowIndex
        if (seat.x === undefined || seat.y === undefined) laidOut.add(id)
        const place = `${x} ${y}`
        const there = seatAtPlace.get(place)
        if (there !== undefined) {
          add(seatAt, `The ${here} is drawn where the ${there} is; move one of them.`)
        } else seatAtPlace.set(place, here)

        return {
          id,
          number: seat.number,
          x,
          y,
          blocked: seat.blocked ?? false,
          accessible: seat.accessible === true ? 'wheelchair' : (seat.accessible ?? false),
        }
      })
      rowIndex += 1
      return { label: row.label, seats }
    })
    rowIndex += 1 // the empty row between sections
    sections.push({ name: section.name, ticketTypeId, rows })
  })

  if (issues.length > 0) return { ok: false, issues }
  return { ok: true, plan: { stage: body.stage ?? null, sections }, laidOut }
}

/** Each seated ticket type's capacity: the seats of its section that are for sale. */
export function seatsForSale(plan: Plan): Map<string, number> {
  const capacities = new Map<string, number>()
  for (const section of plan.sections) {
    let count = 0
    for (const row of section.rows) for (const seat of row.seats) if (!seat.blocked) count += 1
    capacities.set(section.ticketTypeId, (capacities.get(section.ticketTypeId) ?? 0) + count)
  }
  return capacities
}

/** Every seat of the plan with its section and row, in the plan's order. */
export function flatSeats(plan: Plan): FlatSeat[] {
  const seats: FlatSeat[] = []
  for (const section of plan.sections) {
    for (const row of section.rows) {
      for (const seat of row.seats) {
        seats.push({
          id: seat.id,
          section: section.name,
          ticketTypeId: section.ticketTypeId,
          row: row.label,
          number: seat.number,
          x: seat.x,
          y: seat.y,
          blocked: seat.blocked,
          accessible: seat.accessible,
        })
      }
    }
  }
  return seats
}

/**
 * The held or sold seats a new plan would take from their buyers: gone, drawn elsewhere, in another
 * section or ticket type, or newly blocked. Sorted; empty when the new plan may be saved. A taken
 * seat that was already blocked stays allowed, so saving the same plan again is never refused. A
 * seat the layout placed in both plans (`laidOut`: given no place now, and drawn before where the
 * layout put it) is not held to where it was drawn: a row removed or added above it moves its
 * drawing, not the seat its buyer has (the same section, row and number). A seat that had a place
 * of its own keeps it.
 */
export function takenSeatsMoved(
  before: Plan | null,
  after: Plan,
  taken: ReadonlySet<string>,
  laidOut: ReadonlySet<string> = new Set(),
): string[] {
  if (taken.size === 0) return []
  const was = new Map(before ? flatSeats(before).map((seat) => [seat.id, seat]) : [])
  const now = new Map(flatSeats(after).map((seat) => [seat.id, seat]))
  const layout = before && laidOut.size > 0 ? layoutPlaces(before) : new Map<string, string>()
  const moved: string[] = []
  for (const id of taken) {
    const next = now.get(id)
    if (next === undefined) {
      moved.push(id)
      continue
    }
    const prev = was.get(id)
    if (prev === undefined) continue
    if (
      ((prev.x !== next.x || prev.y !== next.y) &&
        !(laidOut.has(id) && layout.get(id) === `${prev.x} ${prev.y}`)) ||
      prev.section !== next.section ||
      prev.ticketTypeId !== next.ticketTypeId ||
      (next.blocked && !prev.blocked)
    ) {
      moved.push(id)
    }
  }
  return moved.sort()
}

/** where the layout puts each seat of a plan (placePlan: its index in its row, its row's down the
 * plan with an empty row between sections), as "x y" */
function layoutPlaces(plan: Plan): Map<string, string> {
  const places = new Map<string, string>()
  let rowIndex = 0
  for (const section of plan.sections) {
    for (const row of section.rows) {
      row.seats.forEach((seat, i) => {
        places.set(seat.id, `${i} ${rowIndex}`)
      })
      rowIndex += 1
    }
    rowIndex += 1
  }
  return places
}

/** the ids of the seats a new plan no longer has (none for a first plan), in the old plan's order */
export function seatsRemoved(before: Plan | null, after: Plan): string[] {
  if (!before) return []
  const now = new Set(flatSeats(after).map((seat) => seat.id))
  return flatSeats(before)
    .map((seat) => seat.id)
    .filter((id) => !now.has(id))
}

/**
 * What a new plan changes of its seats' statuses, as the map's room tells them: a seat added (free
 * or blocked), a seat blocked or no longer blocked. A held or sold seat neither moves nor is blocked
 * by a new plan (takenSeatsMoved), so none of these is taken. A seat removed has no status to tell:
 * the plan's new version says to read the map again. Nothing before the first plan (no map to change).
 */
export function seatStatusChanges(
  before: Plan | null,
  after: Plan,
): Array<{ id: string; status: 'free' | 'blocked' }> {
  if (!before) return []
  const was = new Map(flatSeats(before).map((seat) => [seat.id, seat.blocked]))
  const changes: Array<{ id: string; status: 'free' | 'blocked' }> = []
  for (const section of after.sections)
    for (const row of section.rows)
      for (const seat of row.seats) {
        const blocked = was.get(seat.id)
        if (blocked === undefined || blocked !== seat.blocked)
          changes.push({ id: seat.id, status: seat.blocked ? 'blocked' : 'free' })
      }
  return changes
}
