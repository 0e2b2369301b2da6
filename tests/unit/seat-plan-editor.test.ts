// The organizer's plan editor's pure parts (issue 40, web/src/screens/seating/plan-grid.ts and
// plan-draft.ts): sections drawn from a grid of rows and seats, seats marked, the draft previewed
// with the saved map's live statuses and sent as the contract's body.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { SeatMapBody, type SeatMapView } from '../../contracts/seating.ts'
import {
  bodyOf,
  type Draft,
  draftOf,
  moveSeat,
  moveSection,
  moveStepOf,
  previewOf,
  seatCount,
  statusesOf,
  toggleSeat,
} from '../../web/src/screens/seating/plan-draft.ts'
import {
  AISLE,
  firstRowRefusal,
  gridSection,
  nextRowLabel,
  parseAisles,
  ROW_PITCH,
  rowColumns,
  rowLabels,
} from '../../web/src/screens/seating/plan-grid.ts'
import { SEAT_PITCH } from '../../web/src/screens/seating/plan-layout.ts'

const grid = {
  name: ' Stalls ',
  ticketType: 'Stalls',
  rows: 3,
  seatsPerRow: 4,
  firstRow: 'a',
  numbering: 'left-to-right' as const,
  aislesAfter: [],
  curve: 0,
  top: 0,
}

describe('row labels', () => {
  it('go on from the first: letters in capitals, then two letters; numbers count up', () => {
    expect(rowLabels('a', 3)).toEqual(['A', 'B', 'C'])
    expect(rowLabels('Y', 4)).toEqual(['Y', 'Z', 'AA', 'AB'])
    expect(nextRowLabel('AZ')).toBe('BA')
    expect(nextRowLabel('ZZ')).toBe('AAA')
    expect(rowLabels('9', 3)).toEqual(['9', '10', '11'])
  })

  it('start from letters or a number only', () => {
    expect(firstRowRefusal('F')).toBeNull()
    expect(firstRowRefusal('12')).toBeNull()
    expect(firstRowRefusal('A1')).toBe('The first row label is letters (A) or a number (1).')
    expect(firstRowRefusal('ABCD')).toBe('The first row label has at most 3 characters.')
  })
})

describe('aisles', () => {
  it('are read from seat numbers separated by commas or spaces', () => {
    expect(parseAisles('12, 4 4;8')).toEqual([4, 8, 12])
    expect(parseAisles('')).toEqual([])
    expect(parseAisles('4, x')).toBeNull()
  })

  it('widen the gap after the seat they follow, in either numbering', () => {
    expect(rowColumns({ seatsPerRow: 4, numbering: 'left-to-right', aislesAfter: [2] })).toEqual([
      { number: 1, x: 0 },
      { number: 2, x: SEAT_PITCH },
      { number: 3, x: 2 * SEAT_PITCH + AISLE },
      { number: 4, x: 3 * SEAT_PITCH + AISLE },
    ])
    // numbered from the right: seat 1 is drawn last; the aisle after seat 1 lies between 2 and 1
    expect(rowColumns({ seatsPerRow: 3, numbering: 'right-to-left', aislesAfter: [1] })).toEqual([
      { number: 3, x: 0 },
      { number: 2, x: SEAT_PITCH },
      { number: 1, x: 2 * SEAT_PITCH + AISLE },
    ])
  })
})

describe('a section drawn from a grid', () => {
  it('has its rows and seats, centred across and a row pitch apart', () => {
    const section = gridSection(grid)
    expect(section.name).toBe('Stalls')
    expect(section.rows.map((row) => row.label)).toEqual(['A', 'B', 'C'])
    expect(section.rows[0]?.seats).toEqual([
      { number: 1, x: -15, y: 0 },
      { number: 2, x: -5, y: 0 },
      { number: 3, x: 5, y: 0 },
      { number: 4, x: 15, y: 0 },
    ])
    expect(section.rows[2]?.seats[0]).toEqual({ number: 1, x: -15, y: 2 * ROW_PITCH })
  })

  it("bends a curved row's ends towards the stage, its middle staying", () => {
    const row = gridSection({ ...grid, seatsPerRow: 5, curve: 2 }).rows[0]
    expect(row?.seats.map((seat) => seat.y)).toEqual([-20, -5, 0, -5, -20])
  })

  it('is a valid part of the contract body', () => {
    const body = { stage: null, sections: [gridSection(grid)] }
    expect(v.safeParse(SeatMapBody, body).success).toBe(true)
  })
})

describe('the draft', () => {
  const draft = { stage: null, sections: [gridSection(grid)] }

  it('blocks and unblocks a seat, and marks it for a wheelchair or a companion', () => {
    const blocked = toggleSeat(draft, 'p0-1-2', 'blocked')
    expect(blocked.sections[0]?.rows[1]?.seats[2]).toEqual({ number: 3, x: 5, y: ROW_PITCH, blocked: true })
    // the other rows are left as they were
    expect(blocked.sections[0]?.rows[0]).toBe(draft.sections[0]?.rows[0])
    const both = toggleSeat(blocked, 'p0-1-2', 'wheelchair')
    expect(both.sections[0]?.rows[1]?.seats[2]).toMatchObject({ blocked: true, accessible: 'wheelchair' })
    const companion = toggleSeat(both, 'p0-1-2', 'companion')
    expect(companion.sections[0]?.rows[1]?.seats[2]).toMatchObject({ accessible: 'companion' })
    const unmarked = toggleSeat(toggleSeat(companion, 'p0-1-2', 'companion'), 'p0-1-2', 'blocked')
    expect(unmarked.sections[0]?.rows[1]?.seats[2]).toEqual({ number: 3, x: 5, y: ROW_PITCH })
    expect(toggleSeat(draft, 'p9-9-9', 'blocked')).toBe(draft)
  })

  it('moves a seat, keeping its marks, and a whole section; the rest stays as it was', () => {
    const marked = toggleSeat(draft, 'p0-1-2', 'wheelchair')
    const moved = moveSeat(moveSeat(marked, 'p0-1-2', 0.5, 0), 'p0-1-2', 0.5, -0.5)
    expect(moved.sections[0]?.rows[1]?.seats[2]).toEqual({
      number: 3,
      x: 6,
      y: ROW_PITCH - 0.5,
      accessible: 'wheelchair',
    })
    expect(moved.sections[0]?.rows[1]?.seats[1]).toBe(marked.sections[0]?.rows[1]?.seats[1])
    expect(moved.sections[0]?.rows[0]).toBe(marked.sections[0]?.rows[0])
    expect(moveSeat(draft, 'p9-9-9', 1, 1)).toBe(draft)
    // steps add up without floating point error
    const x0 = draft.sections[0]?.rows[0]?.seats[0]?.x ?? 0
    let stepped: Draft = draft
    for (let i = 0; i < 3; i++) stepped = moveSeat(stepped, 'p0-0-0', 0.1, 0)
    expect(x0 + 0.1 + 0.1 + 0.1).not.toBe(Math.round((x0 + 0.3) * 10) / 10)
    expect(stepped.sections[0]?.rows[0]?.seats[0]?.x).toBe(Math.round((x0 + 0.3) * 10) / 10)

    const two: Draft = {
      stage: null,
      sections: [gridSection(grid), gridSection({ ...grid, name: 'Circle' })],
    }
    const shifted = moveSection(two, 1, 0, 2.5)
    expect(shifted.sections[0]).toBe(two.sections[0])
    const ys = (d: Draft, s: number) => d.sections[s]?.rows.flatMap((r) => r.seats.map((seat) => seat.y))
    expect(ys(shifted, 1)).toEqual(ys(two, 1)?.map((y) => (y ?? 0) + 2.5))
    expect(moveSection(two, 5, 1, 1)).toBe(two)
    expect(v.safeParse(SeatMapBody, bodyOf(shifted)).success).toBe(true)
  })

  it("moves by half a seat, whatever the plan's units", () => {
    // a grid's seats are SEAT_PITCH apart
    expect(moveStepOf({ stage: null, sections: [gridSection(grid)] })).toBe(SEAT_PITCH / 2)
    // a plan drawn elsewhere, its seats 30 units apart (an aisle's wider gap is not the usual one)
    const wide: Draft = {
      stage: null,
      sections: [
        {
          name: 'Stalls',
          ticketType: 'Stalls',
          rows: [
            { label: 'A', seats: [0, 30, 60, 150, 180].map((x, i) => ({ number: i + 1, x, y: 0 })) },
            { label: 'B', seats: [0, 30, 60].map((x, i) => ({ number: i + 1, x, y: 40 })) },
          ],
        },
      ],
    }
    expect(moveStepOf(wide)).toBe(15)
    // no row of two seats: the grid's step
    expect(moveStepOf({ stage: null, sections: [] })).toBe(SEAT_PITCH / 2)
  })

  it("is previewed with the saved map's statuses, by section, row and number", () => {
    const saved: SeatMapView = {
      eventId: 'e1',
      version: 3,
      stage: null,
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
                { id: 's1', number: 1, x: -15, y: 0, status: 'sold', accessible: false },
                { id: 's2', number: 2, x: -5, y: 0, status: 'blocked', accessible: 'wheelchair' },
              ],
            },
          ],
        },
      ],
    }
    const preview = previewOf(
      toggleSeat(draft, 'p0-0-2', 'blocked'),
      'e1',
      new Map([['Stalls', 1500]]),
      statusesOf(saved),
    )
    const row = preview.sections[0]?.rows[0]
    expect(preview.sections[0]?.price).toBe(1500)
    expect(row?.seats.map((seat) => [seat.id, seat.status])).toEqual([
      ['p0-0-0', 'sold'],
      // blocked in the saved map, not in this draft: free
      ['p0-0-1', 'free'],
      ['p0-0-2', 'blocked'],
      ['p0-0-3', 'free'],
    ])
    // the saved map read back as a draft keeps its marks
    expect(draftOf(saved).sections[0]?.rows[0]?.seats[1]).toEqual({
      number: 2,
      x: -5,
      y: 0,
      blocked: true,
      accessible: 'wheelchair',
    })
  })

  it('counts its seats, and is sent as the contract body', () => {
    expect(seatCount(draft)).toBe(12)
    expect(v.safeParse(SeatMapBody, bodyOf(toggleSeat(draft, 'p0-0-0', 'wheelchair'))).success).toBe(true)
  })
})

describe('the preview', () => {
  it('keeps the rows a change leaves as they were, so the map redraws only the changed one', () => {
    const draft = { stage: null, sections: [gridSection(grid)] }
    const prices = new Map([['Stalls', 1500]])
    const before = previewOf(draft, 'e1', prices, new Map())
    const toggled = toggleSeat(draft, 'p0-1-0', 'blocked')
    const after = previewOf(toggled, 'e1', prices, new Map())
    expect(after.sections[0]?.rows[0]).toBe(before.sections[0]?.rows[0])
    expect(after.sections[0]?.rows[1]).not.toBe(before.sections[0]?.rows[1])
    // a sale in row C (from the saved map's live statuses) redraws row C only
    const sold = previewOf(toggled, 'e1', prices, new Map([['Stalls\u0000C\u00002', 'sold' as const]]))
    expect(sold.sections[0]?.rows[1]).toBe(after.sections[0]?.rows[1])
    expect(sold.sections[0]?.rows[2]?.seats[1]?.status).toBe('sold')
  })
})
