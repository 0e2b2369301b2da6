// A plan reused from another event at the same venue (issue 40): its sections, rows, seats (where
// they are, blocked, accessible) and stage become this event's draft as they are, not as a grid,
// so they stay editable a seat at a time. Its sections take this event's ticket type of the same
// name (the source section's type's name, else the section's own name); the others are left for
// the organizer to choose.
import type { SeatMapView } from '../../../../contracts/seating.ts'
import { type Draft, draftOf } from './plan-draft.ts'

const plain = (name: string) => name.trim().toLowerCase()

/** this event's type a section of another event's plan is sold as, or '' when none matches */
export function matchingType(
  section: { name: string; ticketType: string },
  typeNames: ReadonlyArray<string>,
): string {
  const byName = new Map(typeNames.map((name) => [plain(name), name]))
  return byName.get(plain(section.ticketType)) ?? byName.get(plain(section.name)) ?? ''
}

/** another event's plan as this event's draft; held and sold seats there are free here */
export function reusedDraft(map: SeatMapView, typeNames: ReadonlyArray<string>): Draft {
  const draft = draftOf(map)
  return {
    ...draft,
    sections: draft.sections.map((section, s) => ({
      ...section,
      ticketType: matchingType(map.sections[s] ?? section, typeNames),
    })),
  }
}

/** the draft's sections without one of the event's ticket types (by name) */
export const unassignedSections = (draft: Draft, typeNames: ReadonlyArray<string>): string[] =>
  draft.sections.filter((section) => !typeNames.includes(section.ticketType)).map((section) => section.name)

/** the draft with section `s` sold as `ticketType` */
export const assignType = (draft: Draft, s: number, ticketType: string): Draft => ({
  ...draft,
  sections: draft.sections.map((section, i) => (i === s ? { ...section, ticketType } : section)),
})

type EventRow = { _id: string; organizerId: string; location: string }

/**
 * The events whose plans are offered for `event`: its organizer's others, those at its venue
 * (the same location, in any case and spacing) first, each group in the order given.
 */
export function eventsToCopyFrom<Row extends EventRow>(rows: ReadonlyArray<Row>, event: EventRow): Row[] {
  const others = rows.filter((row) => row._id !== event._id && row.organizerId === event.organizerId)
  const here = plain(event.location)
  return [
    ...others.filter((row) => plain(row.location) === here),
    ...others.filter((row) => plain(row.location) !== here),
  ]
}
