// A plan reused from another event (issue 40, web/src/screens/seating/plan-reuse.ts): its seats as
// they are, its sections sold as this event's types of the same name, the others left to choose.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { SeatMapBody, type SeatMapView } from '../../contracts/seating.ts'
import { bodyOf } from '../../web/src/screens/seating/plan-draft.ts'
import {
  assignType,
  eventsToCopyFrom,
  matchingType,
  reusedDraft,
  unassignedSections,
} from '../../web/src/screens/seating/plan-reuse.ts'

type Seat = SeatMapView['sections'][number]['rows'][number]['seats'][number]

const seat = (number: number, x: number, y: number, more: Partial<Seat> = {}): Seat => ({
  id: `s${x}${y}`,
  number,
  x,
  y,
  status: 'free',
  accessible: false,
  ...more,
})

/** the other event's plan: Stalls sold as Stalls, the Balcony as "Upper Tier", a Box as VIP */
const theirs: SeatMapView = {
  eventId: 'other',
  version: 3,
  stage: { x: -20, y: -40, w: 40, h: 16 },
  sections: [
    {
      name: 'Stalls',
      ticketType: 'Stalls',
      ticketTypeId: 't1',
      price: 1500,
      rows: [
        {
          label: 'A',
          seats: [
            seat(1, -5, 0, { status: 'sold' }),
            seat(2, 5.5, 1, { status: 'blocked', accessible: 'wheelchair' }),
          ],
        },
        { label: 'B', seats: [seat(1, -5, 12, { status: 'held', accessible: 'companion' })] },
      ],
    },
    {
      name: 'Balcony',
      ticketType: 'Upper Tier',
      ticketTypeId: 't2',
      price: 800,
      rows: [{ label: '1', seats: [seat(7, 0, 60)] }],
    },
    {
      name: 'Box',
      ticketType: 'VIP',
      ticketTypeId: 't3',
      price: 5000,
      rows: [{ label: 'A', seats: [seat(1, 40, 0)] }],
    },
  ],
}

describe('a section of another plan', () => {
  it("takes this event's type named as its type, in any case and spacing", () => {
    expect(matchingType({ name: 'Front', ticketType: 'stalls ' }, ['General Admission', 'Stalls'])).toBe(
      'Stalls',
    )
  })

  it("else this event's type named as the section", () => {
    expect(matchingType({ name: 'Balcony', ticketType: 'Upper Tier' }, ['Balcony', 'Stalls'])).toBe('Balcony')
  })

  it('else none', () => {
    expect(matchingType({ name: 'Box', ticketType: 'VIP' }, ['Stalls'])).toBe('')
  })
})

describe("another event's plan reused", () => {
  const draft = reusedDraft(theirs, ['Stalls', 'Balcony', 'General Admission'])

  it('keeps its stage, sections, rows and seats where they are, blocked and accessible as they were', () => {
    expect(draft.stage).toEqual(theirs.stage)
    expect(draft.sections.map((section) => section.name)).toEqual(['Stalls', 'Balcony', 'Box'])
    expect(draft.sections[0]?.rows).toEqual([
      {
        label: 'A',
        seats: [
          { number: 1, x: -5, y: 0 },
          { number: 2, x: 5.5, y: 1, blocked: true, accessible: 'wheelchair' },
        ],
      },
      { label: 'B', seats: [{ number: 1, x: -5, y: 12, accessible: 'companion' }] },
    ])
  })

  it('has no seat held or sold: those were the other event’s buyers', () => {
    const seats = draft.sections.flatMap((section) => section.rows.flatMap((row) => row.seats))
    expect(seats.filter((each) => each.blocked)).toHaveLength(1)
    expect(JSON.stringify(draft)).not.toMatch(/sold|held|"id"/)
  })

  it('sells each section as the type of the same name, and leaves the others to choose', () => {
    expect(draft.sections.map((section) => section.ticketType)).toEqual(['Stalls', 'Balcony', ''])
    expect(unassignedSections(draft, ['Stalls', 'Balcony', 'General Admission'])).toEqual(['Box'])
  })

  it('is a plan the contract takes once every section has a type', () => {
    expect(v.safeParse(SeatMapBody, bodyOf(draft)).success).toBe(false)
    const assigned = assignType(draft, 2, 'General Admission')
    expect(assigned.sections.map((section) => section.ticketType)).toEqual([
      'Stalls',
      'Balcony',
      'General Admission',
    ])
    expect(unassignedSections(assigned, ['Stalls', 'Balcony', 'General Admission'])).toEqual([])
    expect(v.safeParse(SeatMapBody, bodyOf(assigned)).success).toBe(true)
    // the draft it came from is unchanged
    expect(draft.sections[2]?.ticketType).toBe('')
  })
})

describe('the events a plan may be copied from', () => {
  const event = { _id: 'e1', organizerId: 'o1', location: 'Ranga Shankara, Bengaluru' }
  const rows = [
    { _id: 'e2', organizerId: 'o1', location: 'Chowdiah Hall' },
    { _id: 'e1', organizerId: 'o1', location: 'Ranga Shankara, Bengaluru' },
    { _id: 'e3', organizerId: 'o2', location: 'Ranga Shankara, Bengaluru' },
    { _id: 'e4', organizerId: 'o1', location: ' ranga shankara, bengaluru' },
    { _id: 'e5', organizerId: 'o1', location: 'Chowdiah Hall' },
  ]

  it("are the organizer's others, those at the same venue first, each group in the order given", () => {
    expect(eventsToCopyFrom(rows, event).map((row) => row._id)).toEqual(['e4', 'e2', 'e5'])
  })
})
