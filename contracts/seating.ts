// Reserved seating (issue 40): an event's plan of sections, rows and seats, each seated ticket type
// one section whose capacity is its seats for sale. Seat ids are the server's: a hash of the event,
// the section's name, the row's label and the seat's number, so the same seat keeps its id when the
// plan is saved again, and a seat renamed or renumbered is another seat.
import * as v from 'valibot'
import { Id, PathParams } from './common.ts'
import { MAX_PLAN_SEATS, MAX_SEATS_PER_ORDER } from './seating-limits.ts'

export { MAX_PLAN_SEATS, MAX_SEATS_PER_ORDER }

const coordinate = (name: string) =>
  v.pipe(
    v.number(`${name} must be a number.`),
    v.finite(`${name} must be a number.`),
    v.minValue(-100_000, `${name} must be between -100000 and 100000.`),
    v.maxValue(100_000, `${name} must be between -100000 and 100000.`),
  )

/** a seat's number on its row: a whole number, or a short label such as "12A" */
const SEAT_NUMBER_WORDS = 'A seat number must be a whole number or up to 8 letters and digits.'
export const SeatNumber = v.union(
  [
    v.pipe(
      v.number(SEAT_NUMBER_WORDS),
      v.integer(SEAT_NUMBER_WORDS),
      v.minValue(0, 'A seat number must be between 0 and 100000.'),
      v.maxValue(100_000, 'A seat number must be between 0 and 100000.'),
    ),
    v.pipe(v.string(SEAT_NUMBER_WORDS), v.trim(), v.regex(/^[A-Za-z0-9-]{1,8}$/, SEAT_NUMBER_WORDS)),
  ],
  SEAT_NUMBER_WORDS,
)
export type SeatNumber = v.InferOutput<typeof SeatNumber>

/** what an accessible seat is for: `true` is a wheelchair space */
export const Accessible = v.union(
  [v.boolean(), v.picklist(['wheelchair', 'companion'])],
  'accessible must be true, false, "wheelchair" or "companion".',
)

export const SeatInput = v.object({
  number: SeatNumber,
  x: v.optional(coordinate('x')),
  y: v.optional(coordinate('y')),
  /** not for sale (the crew's, a camera's) */
  blocked: v.optional(v.boolean('blocked must be true or false.')),
  accessible: v.optional(Accessible),
})
export type SeatInput = v.InferOutput<typeof SeatInput>

export const RowInput = v.object({
  label: v.pipe(
    v.string('A row needs a label.'),
    v.trim(),
    v.nonEmpty('A row needs a label.'),
    v.maxLength(12, 'A row label has at most 12 characters.'),
  ),
  seats: v.pipe(v.array(SeatInput, 'A row’s seats must be a list.'), v.minLength(1, 'A row needs a seat.')),
})
export type RowInput = v.InferOutput<typeof RowInput>

export const SectionInput = v.object({
  name: v.pipe(
    v.string('A section needs a name.'),
    v.trim(),
    v.nonEmpty('A section needs a name.'),
    v.maxLength(60, 'A section name has at most 60 characters.'),
  ),
  /** the event's ticket type sold in this section: its name or its _id */
  ticketType: v.pipe(
    v.string('A section needs a ticket type.'),
    v.trim(),
    v.nonEmpty('A section needs a ticket type.'),
    v.maxLength(64),
  ),
  rows: v.pipe(
    v.array(RowInput, 'A section’s rows must be a list.'),
    v.minLength(1, 'A section needs a row.'),
  ),
})
export type SectionInput = v.InferOutput<typeof SectionInput>

export const Box = v.object({
  x: coordinate('x'),
  y: coordinate('y'),
  w: coordinate('w'),
  h: coordinate('h'),
})
export type Box = v.InferOutput<typeof Box>

/** a size of the stage: more than nothing (a stage of width -5 is no stage to draw) */
const extent = (name: string) =>
  v.pipe(
    coordinate(name),
    v.check((n) => n > 0, `${name} must be more than 0.`),
  )

/** the stage as a plan gives it: a place and a size */
const StageInput = v.object({ x: coordinate('x'), y: coordinate('y'), w: extent('w'), h: extent('h') })

/** PUT /event/{id}/seatmap */
export const SeatMapBody = v.object({
  stage: v.optional(v.nullable(StageInput)),
  sections: v.pipe(
    v.array(SectionInput, 'Sections must be a list.'),
    v.minLength(1, 'Add at least one section.'),
    v.maxLength(100, 'A plan has at most 100 sections.'),
  ),
})
export type SeatMapBody = v.InferOutput<typeof SeatMapBody>

export const seatStatuses = ['free', 'held', 'sold', 'blocked'] as const
export const SeatStatus = v.picklist(seatStatuses)
export type SeatStatus = v.InferOutput<typeof SeatStatus>

export const SeatView = v.object({
  id: v.string(),
  number: SeatNumber,
  x: v.number(),
  y: v.number(),
  status: SeatStatus,
  /** false, or what the seat is for */
  accessible: v.union([v.literal(false), v.picklist(['wheelchair', 'companion'])]),
})
export type SeatView = v.InferOutput<typeof SeatView>

/** GET /event/{id}/seatmap */
export const SeatMapView = v.object({
  eventId: v.string(),
  /** grows with every saved plan */
  version: v.number(),
  stage: v.nullable(Box),
  sections: v.array(
    v.object({
      name: v.string(),
      /** the ticket type's name */
      ticketType: v.string(),
      ticketTypeId: v.string(),
      /** rupees */
      price: v.number(),
      rows: v.array(v.object({ label: v.string(), seats: v.array(SeatView) })),
    }),
  ),
})
export type SeatMapView = v.InferOutput<typeof SeatMapView>

/** a seat as an order, a ticket and a pass name it */
export const SeatLabel = v.object({
  id: v.string(),
  section: v.string(),
  row: v.string(),
  number: SeatNumber,
})
export type SeatLabel = v.InferOutput<typeof SeatLabel>

/** a seat as a door, a pass and a mail show it: "Stalls, Row F, Seat 12" */
export const seatText = (seat: SeatLabel) => `${seat.section}, Row ${seat.row}, Seat ${seat.number}`

/** the seats an order names in POST /ticket/create */
export const SeatChoice = v.pipe(
  v.array(v.pipe(v.string('A seat id must be text.'), v.regex(/^[a-z0-9]{1,32}$/, 'Invalid seat id.'))),
  v.minLength(1, 'Choose at least one seat.'),
  v.maxLength(MAX_SEATS_PER_ORDER, `Choose at most ${MAX_SEATS_PER_ORDER} seats.`),
  v.check((ids) => new Set(ids).size === ids.length, 'Each seat can be chosen only once.'),
)

/** the live room's message `seats` */
export const SeatChanges = v.object({
  eventId: v.string(),
  changes: v.array(v.object({ id: v.string(), status: SeatStatus })),
  /** a new plan's version: the map is read again */
  version: v.optional(v.number()),
  /** the seats a new plan no longer has (with its version) */
  removed: v.optional(v.array(v.string())),
})
export type SeatChanges = v.InferOutput<typeof SeatChanges>

export const SeatMapParams = PathParams({ id: Id })
export const SeatParams = PathParams({
  id: Id,
  seatId: v.pipe(v.string(), v.regex(/^[a-z0-9]{1,32}$/, 'Seat not found.')),
})

/** GET /event/{id}/seats/{seatId}: a seat and, held or sold, who has it (its organizer, admins) */
export const SeatHolderView = v.object({
  seat: SeatLabel,
  status: SeatStatus,
  /** the ticket (order) holding it; null when free or blocked */
  ticketId: v.nullable(v.string()),
  holder: v.nullable(v.object({ _id: v.string(), username: v.string(), email: v.string() })),
})
export type SeatHolderView = v.InferOutput<typeof SeatHolderView>
export const SEAT_NOT_FOUND = 'Seat not found.'

/** the refusals people see */
export const SEATS_TAKEN = 'Some of the seats you chose are no longer available.'
export const SINGLE_SEAT_LEFT =
  'Your selection would leave a single empty seat. Please choose seats next to each other.'
export const NO_SEATS_TOGETHER = 'Not enough seats available in this section.'
/** free seats named while people wait for their type: the seats that come back are the list's */
export const seatsKeptForWaitlist = (section: string) =>
  `The free seats of ${section} are kept for its waiting list: join it to be offered seats.`
/** a hold by count on a ticket type that a seat map has made seated since the checkout began */
export const CHOOSE_SEATS = 'This ticket type now has a seat map. Please choose your seats.'

export const PLAN_MOVES_TAKEN_SEATS = 'The new plan would move or remove seats that are held or sold.'
export const NO_SEATMAP = 'This event has no seat map.'
