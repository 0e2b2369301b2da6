// The seat map's pure parts (issue 40, web/src/screens/seating and web/src/live/seat-changes.ts):
// each seat's accessible name, the grid's keyboard order, the plan's box, the zoom's maths, live
// changes applied to a cached map, the buyer's selection, and a big plan's canvas: the seat under a
// point, each seat's look, the canvas's resolution.
import { describe, expect, it } from 'vitest'
import type { SeatMapView } from '../../contracts/seating.ts'
import {
  applySeatChanges,
  seatChangesOf,
  seatCounts,
  seatLayout,
  seatPlaces,
} from '../../web/src/live/seat-changes.ts'
import {
  planBox,
  planBoxes,
  rowsToDraw,
  SEAT_RADIUS,
  sectionBox,
  stageAbove,
} from '../../web/src/screens/seating/plan-layout.ts'
import { canvasScale, seatAtPoint, seatLook } from '../../web/src/screens/seating/seat-canvas.ts'
import { seatName } from '../../web/src/screens/seating/seat-name.ts'
import { moveFocus, seatNavigation } from '../../web/src/screens/seating/seat-navigation.ts'
import {
  inPlanOrder,
  keepFree,
  noSelection,
  onSaleTo,
  pickedSeat,
  selectionTexts,
  selectionTotal,
  toggleSelection,
} from '../../web/src/screens/seating/seat-selection.ts'
import {
  clampView,
  MAX_ZOOM,
  panBy,
  pinch,
  planPoint,
  showPoint,
  zoomAt,
} from '../../web/src/screens/seating/zoom.ts'

type Seat = SeatMapView['sections'][number]['rows'][number]['seats'][number]

const seat = (id: string, number: number, x: number, y: number, status: Seat['status'] = 'free'): Seat => ({
  id,
  number,
  x,
  y,
  status,
  accessible: false,
})

/** Stalls: rows A (3 seats) and B (4 seats, drawn right to left in the data); Balcony: row A (2) */
const map: SeatMapView = {
  eventId: 'e1',
  version: 1,
  stage: { x: -20, y: -40, w: 40, h: 10 },
  sections: [
    {
      name: 'Stalls',
      ticketType: 'Stalls',
      ticketTypeId: 't1',
      price: 1500,
      rows: [
        { label: 'A', seats: [seat('a1', 1, -10, 0), seat('a2', 2, 0, 0), seat('a3', 3, 10, 0, 'sold')] },
        {
          label: 'B',
          seats: [seat('b4', 4, 15, 12), seat('b3', 3, 5, 12), seat('b2', 2, -5, 12), seat('b1', 1, -15, 12)],
        },
      ],
    },
    {
      name: 'Balcony',
      ticketType: 'Balcony',
      ticketTypeId: 't2',
      price: 800,
      rows: [{ label: 'A', seats: [seat('c1', 1, -5, 40), seat('c2', 2, 5, 40, 'blocked')] }],
    },
  ],
}

describe("a seat's accessible name", () => {
  it('says its row, number, price in rupees and status', () => {
    expect(seatName('F', { number: 12, status: 'free', accessible: false }, 1500)).toBe(
      'Row F, seat 12, ₹1,500, free',
    )
    expect(seatName('AA', { number: '7B', status: 'held', accessible: false }, 250000)).toBe(
      'Row AA, seat 7B, ₹2,50,000, held',
    )
  })

  it('says not for sale for a blocked seat, sold for a sold one', () => {
    expect(seatName('A', { number: 1, status: 'blocked', accessible: false }, 800)).toBe(
      'Row A, seat 1, ₹800, not for sale',
    )
    expect(seatName('A', { number: 1, status: 'sold', accessible: false }, 800)).toBe(
      'Row A, seat 1, ₹800, sold',
    )
  })

  it('adds a wheelchair space or a companion seat', () => {
    expect(seatName('F', { number: 12, status: 'free', accessible: 'wheelchair' }, 1500)).toBe(
      'Row F, seat 12, ₹1,500, free, wheelchair space',
    )
    expect(seatName('F', { number: 13, status: 'free', accessible: 'companion' }, 1500)).toBe(
      'Row F, seat 13, ₹1,500, free, companion seat',
    )
  })
})

describe("the grid's keyboard order", () => {
  const nav = seatNavigation(map)

  it('takes rows in the plan order and seats from left to right as drawn', () => {
    expect(nav.rows.map((row) => row.ids)).toEqual([
      ['a1', 'a2', 'a3'],
      ['b1', 'b2', 'b3', 'b4'],
      ['c1', 'c2'],
    ])
  })

  it('moves along a row with Left and Right, stopping at its ends', () => {
    expect(moveFocus(nav, 'a1', { key: 'ArrowRight' })).toBe('a2')
    expect(moveFocus(nav, 'a2', { key: 'ArrowLeft' })).toBe('a1')
    expect(moveFocus(nav, 'a1', { key: 'ArrowLeft' })).toBeNull()
    expect(moveFocus(nav, 'a3', { key: 'ArrowRight' })).toBeNull()
  })

  it('moves Up and Down to the nearest seat across, from one section to the next', () => {
    // a2 is at x 0: b2 (-5) and b3 (5) are as near; the first found wins
    expect(moveFocus(nav, 'a2', { key: 'ArrowDown' })).toBe('b2')
    expect(moveFocus(nav, 'b4', { key: 'ArrowUp' })).toBe('a3')
    expect(moveFocus(nav, 'b4', { key: 'ArrowDown' })).toBe('c2')
    expect(moveFocus(nav, 'a1', { key: 'ArrowUp' })).toBeNull()
    expect(moveFocus(nav, 'c1', { key: 'ArrowDown' })).toBeNull()
  })

  it("goes to a row's ends with Home and End, to the plan's with Ctrl", () => {
    expect(moveFocus(nav, 'b3', { key: 'Home' })).toBe('b1')
    expect(moveFocus(nav, 'b2', { key: 'End' })).toBe('b4')
    expect(moveFocus(nav, 'b2', { key: 'Home', ctrlKey: true })).toBe('a1')
    expect(moveFocus(nav, 'a1', { key: 'End', ctrlKey: true })).toBe('c2')
  })

  it('ignores other keys, and starts at the first seat from one it does not know', () => {
    expect(moveFocus(nav, 'a1', { key: 'x' })).toBeNull()
    expect(moveFocus(nav, 'gone', { key: 'ArrowRight' })).toBe('a1')
  })

  it("knows the first seat and each row's place in the grid before the whole order is made", () => {
    // rows without seats have no place: the grid's rows are the plan's rows with seats
    const gappy: SeatMapView = {
      ...map,
      sections: [
        { ...(map.sections[0] as SeatMapView['sections'][number]), rows: [{ label: 'Z', seats: [] }] },
        ...map.sections,
      ],
    }
    const lazy = seatNavigation(gappy)
    expect(lazy.rowCount).toBe(3)
    // row B's seats come right to left in the data: its first in the keyboard's order is b1
    const reversed = seatNavigation({
      sections: [map.sections[0] as SeatMapView['sections'][number]].map((s) => ({
        ...s,
        rows: s.rows.slice(1),
      })),
    })
    expect(reversed.first).toEqual({ id: 'b1', section: 0, row: 0 })
    expect(lazy.first).toEqual({ id: 'a1', section: 1, row: 0 })
    expect([lazy.gridRowOf(0, 0), lazy.gridRowOf(1, 0), lazy.gridRowOf(1, 1), lazy.gridRowOf(2, 0)]).toEqual([
      null,
      0,
      1,
      2,
    ])
    expect(lazy.gridRowOf(5, 0)).toBeNull()
    // the same places as the whole order gives
    for (const id of ['a1', 'b4', 'c2']) expect(lazy.at.get(id)?.row).toBe(nav.at.get(id)?.row)
    expect(lazy.rows.map((row) => row.ids)).toEqual(nav.rows.map((row) => row.ids))
  })
})

describe("the plan's box", () => {
  it('holds every seat and the stage, with a margin', () => {
    expect(planBox(map, 10)).toEqual({ x: -30, y: -50, w: 60, h: 100 })
  })

  it("holds a section's seats with their radius", () => {
    expect(sectionBox(map.sections[1] as SeatMapView['sections'][number])).toEqual({
      x: -5 - SEAT_RADIUS,
      y: 40 - SEAT_RADIUS,
      w: 10 + 2 * SEAT_RADIUS,
      h: 2 * SEAT_RADIUS,
    })
  })

  it("finds the plan's box and each section's from one pass", () => {
    const { box, sections } = planBoxes(map, 10)
    expect(box).toEqual({ x: -30, y: -50, w: 60, h: 100 })
    expect(sections[1]).toEqual({
      x: -5 - SEAT_RADIUS,
      y: 40 - SEAT_RADIUS,
      w: 10 + 2 * SEAT_RADIUS,
      h: 2 * SEAT_RADIUS,
    })
    // a section without seats: a seat's box at the origin; a plan without a stage: its seats' alone
    const bare = planBoxes({ stage: null, sections: [{ rows: [] }, ...map.sections] }, 0)
    expect(bare.sections[0]).toEqual({
      x: -SEAT_RADIUS,
      y: -SEAT_RADIUS,
      w: 2 * SEAT_RADIUS,
      h: 2 * SEAT_RADIUS,
    })
    expect(bare.box).toEqual({ x: -15, y: 0, w: 30, h: 40 })
  })

  it('places a stage above the seats, centred on them', () => {
    const stage = stageAbove({ stage: null, sections: map.sections })
    expect(stage).toEqual({ x: -20, y: -40, w: 40, h: 16 })
    expect(stageAbove({ stage: null, sections: [] })).toBeNull()
  })
})

describe('a big plan drawn in parts', () => {
  it('draws rows in plan order, as many a frame as hold about the seats asked, at least one', () => {
    // rows of 3, 4 and 2 seats
    expect(rowsToDraw(map, 0, 5)).toBe(2)
    expect(rowsToDraw(map, 2, 5)).toBe(3)
    expect(rowsToDraw(map, 0, 1)).toBe(1)
    expect(rowsToDraw(map, 1, 1)).toBe(2)
    expect(rowsToDraw(map, 0, 1000)).toBe(3)
    expect(rowsToDraw(map, 3, 5)).toBe(3)
  })
})

describe("the map's zoom", () => {
  const box = { x: 0, y: 0, w: 100, h: 50 }
  const whole = { k: 1, x: 0, y: 0 }

  it('zooms about a point, which stays where it is drawn', () => {
    const zoomed = zoomAt(whole, 2, { x: 30, y: 20 }, box)
    expect(zoomed).toEqual({ k: 2, x: -30, y: -20 })
    // the plan point under (30, 20) is still (30, 20)
    expect(planPoint(zoomed, { x: 30, y: 20 })).toEqual({ x: 30, y: 20 })
  })

  it('never shrinks the plan below its whole, nor zooms past the limit', () => {
    expect(zoomAt(whole, 0.5, { x: 50, y: 25 }, box)).toEqual(whole)
    expect(zoomAt(whole, 1000, { x: 50, y: 25 }, box).k).toBe(MAX_ZOOM)
  })

  it('pans within the plan: it always covers the box', () => {
    const zoomed = zoomAt(whole, 2, { x: 0, y: 0 }, box)
    expect(panBy(zoomed, 30, 30, box)).toEqual({ k: 2, x: 0, y: 0 })
    expect(panBy(zoomed, -500, -500, box)).toEqual({ k: 2, x: -100, y: -50 })
    expect(clampView({ k: 1, x: 10, y: -10 }, box)).toEqual(whole)
  })

  it('pinches: fingers spreading twice as far zoom twice, about their middle', () => {
    const pinched = pinch(
      whole,
      [
        { x: 40, y: 25 },
        { x: 60, y: 25 },
      ],
      [
        { x: 30, y: 25 },
        { x: 70, y: 25 },
      ],
      box,
    )
    expect(pinched).toEqual({ k: 2, x: -50, y: -25 })
  })

  it('moves a zoomed view just enough to show a point', () => {
    const zoomed = { k: 2, x: 0, y: 0 }
    expect(showPoint(zoomed, { x: 10, y: 10 }, box)).toBe(zoomed)
    expect(showPoint(zoomed, { x: 80, y: 10 }, box)).toEqual({ k: 2, x: -70, y: 0 })
  })
})

describe('live changes to a cached map', () => {
  it('changes the seats named, and makes new objects of their rows only', () => {
    const changed = applySeatChanges(map, [
      { id: 'a1', status: 'held' },
      { id: 'c1', status: 'sold' },
    ])
    const [stalls, balcony] = changed.sections
    expect(stalls?.rows[0]?.seats[0]?.status).toBe('held')
    expect(balcony?.rows[0]?.seats[0]?.status).toBe('sold')
    // untouched rows are the same objects (their drawing is memoised)
    expect(stalls?.rows[1]).toBe(map.sections[0]?.rows[1])
    expect(stalls?.rows[0]).not.toBe(map.sections[0]?.rows[0])
    // the map read before is as it was
    expect(map.sections[0]?.rows[0]?.seats[0]?.status).toBe('free')
    // and the new map shares the seats' layout and places
    expect(seatLayout(changed)).toBe(seatLayout(map))
    expect(seatPlaces(changed)).toBe(seatPlaces(map))
  })

  it("counts a plan's seats, and finds where each lies once asked", () => {
    const fresh: SeatMapView = { ...map, sections: [...map.sections] }
    const layout = seatLayout(fresh)
    expect(layout.seats).toBe(9)
    expect(layout.places().get('b1')).toEqual({ section: 0, row: 1, seat: 3 })
    expect(layout.places().get('c2')).toEqual({ section: 1, row: 0, seat: 1 })
    expect(layout.places().size).toBe(9)
    expect(layout.places()).toBe(layout.places())
  })

  it('keeps the same map when nothing changes, and ignores unknown seats', () => {
    expect(applySeatChanges(map, [{ id: 'a3', status: 'sold' }])).toBe(map)
    expect(applySeatChanges(map, [{ id: 'zz', status: 'sold' }])).toBe(map)
  })

  it('lets the later change to a seat win', () => {
    const changed = applySeatChanges(map, [
      { id: 'a1', status: 'held' },
      { id: 'a1', status: 'free' },
    ])
    expect(changed).toBe(map)
  })

  it('counts seats by status', () => {
    expect(seatCounts(map)).toEqual({ free: 7, held: 0, sold: 1, blocked: 1 })
  })

  it('reads a message, dropping malformed changes', () => {
    expect(
      seatChangesOf({
        eventId: 'e1',
        changes: [{ id: 'a1', status: 'sold' }, { id: 'a2', status: 'gone' }, null],
      }),
    ).toEqual({ eventId: 'e1', changes: [{ id: 'a1', status: 'sold' }] })
    expect(seatChangesOf({ changes: [] })).toBeNull()
    expect(seatChangesOf('seats')).toBeNull()
  })
})

describe("a buyer's selection", () => {
  it('is listed in the plan’s order, however it was chosen', () => {
    expect(inPlanOrder(map, ['c1', 'a2', 'b3', 'a1', 'gone'])).toEqual(['a1', 'a2', 'b3', 'c1', 'gone'])
  })

  it('adds free seats of one section and takes them away again', () => {
    const one = toggleSelection(noSelection, map, 'a1')
    const two = toggleSelection(one.selection, map, 'b2')
    expect(two.selection).toEqual({ section: 'Stalls', ids: ['a1', 'b2'] })
    expect(toggleSelection(two.selection, map, 'a1').selection).toEqual({ section: 'Stalls', ids: ['b2'] })
    expect(toggleSelection({ section: 'Stalls', ids: ['b2'] }, map, 'b2').selection).toBe(noSelection)
  })

  it('refuses seats that are not free', () => {
    expect(toggleSelection(noSelection, map, 'a3')).toEqual({
      selection: noSelection,
      note: selectionTexts.notFree,
    })
    expect(toggleSelection(noSelection, map, 'c2').note).toBe(selectionTexts.notFree)
  })

  it('starts again in another section: one section an order', () => {
    const picked = toggleSelection({ section: 'Stalls', ids: ['a1'] }, map, 'c1')
    expect(picked).toEqual({
      selection: { section: 'Balcony', ids: ['c1'] },
      note: selectionTexts.otherSection('Balcony'),
    })
  })

  it('stops at the most seats an order may have', () => {
    const full = { section: 'Stalls', ids: ['a1', 'a2'] }
    expect(toggleSelection(full, map, 'b1', 2)).toEqual({ selection: full, note: selectionTexts.tooMany })
  })

  it('keeps the free seats a waiting list waits for: none picked without an offer, as many as it offers', () => {
    const waited = new Map([['t1', 0]])
    expect(toggleSelection(noSelection, map, 'a1', 10, waited)).toEqual({
      selection: noSelection,
      note: selectionTexts.keptForWaitlist('Stalls'),
    })
    // another section's seats are on sale as ever
    expect(toggleSelection(noSelection, map, 'c1', 10, waited).selection).toEqual({
      section: 'Balcony',
      ids: ['c1'],
    })
    const one = { section: 'Stalls', ids: ['a1'] }
    expect(toggleSelection(one, map, 'a2', 10, new Map([['t1', 1]]))).toEqual({
      selection: one,
      note: selectionTexts.fewOnSale('Stalls', 1),
    })
    expect(toggleSelection(one, map, 'a2', 10, new Map([['t1', 2]])).selection.ids).toEqual(['a1', 'a2'])
  })

  it('counts what is on sale to a buyer: the live count and the seats their offer holds', () => {
    const event = {
      _id: 'e1',
      ticketTypes: [
        { _id: 't1', available: 0 },
        { _id: 't2', available: 1 },
      ],
    } as never
    const entry = (
      eventId: string,
      ticketTypeId: string,
      status: 'waiting' | 'offered',
      quantity: number,
    ) => ({
      eventId,
      ticketTypeId,
      ticketType: 'Stalls',
      quantity,
      position: 1,
      status,
      offerUntil: null,
    })
    expect([...onSaleTo(event, [])]).toEqual([
      ['t1', 0],
      ['t2', 1],
    ])
    expect([
      ...onSaleTo(event, [
        entry('e1', 't1', 'offered', 2),
        entry('e1', 't2', 'waiting', 3),
        entry('e2', 't1', 'offered', 4),
      ]),
    ]).toEqual([
      ['t1', 2],
      ['t2', 1],
    ])
  })

  it('drops seats taken meanwhile, and totals the price', () => {
    const chosen = { section: 'Stalls', ids: ['a1', 'a2'] }
    const taken = applySeatChanges(map, [{ id: 'a2', status: 'held' }])
    expect(keepFree(chosen, map)).toBe(chosen)
    expect(keepFree(chosen, taken)).toEqual({ section: 'Stalls', ids: ['a1'] })
    const seats = chosen.ids.flatMap((id) => pickedSeat(map, id) ?? [])
    expect(selectionTotal(seats)).toBe(3000)
    expect(pickedSeat(map, 'b3')).toMatchObject({ section: 'Stalls', row: 'B', number: 3, price: 1500 })
  })
})

describe("a big plan's canvas", () => {
  it('finds the seat under a point, the nearest within reach, else none', () => {
    expect(seatAtPoint(map, { x: 0.5, y: -1 })).toBe('a2')
    expect(seatAtPoint(map, { x: -4, y: 0 })).toBe('a2')
    expect(seatAtPoint(map, { x: -6, y: 0 })).toBe('a1')
    // between two rows, out of a seat's reach
    expect(seatAtPoint(map, { x: 0, y: 6 })).toBeNull()
    // a wider reach (seats drawn a few pixels wide) takes the nearest
    expect(seatAtPoint(map, { x: 0, y: 6 }, 10)).toBe('a2')
    expect(seatAtPoint(map, { x: 100, y: 100 })).toBeNull()
  })

  it("tells seats' looks apart by status, choice and kind", () => {
    const [a1, , a3] = map.sections[0]?.rows[0]?.seats ?? []
    if (!a1 || !a3) throw new Error('no seats')
    expect(seatLook(a1, false)).toBe('free')
    expect(seatLook(a1, true)).toBe('chosen')
    expect(seatLook(a3, false)).toBe('sold')
    expect(seatLook({ ...a1, accessible: 'wheelchair' }, false)).toBe('free wheelchair')
  })

  it('paints at most 4096 pixels a side, and at most 4 a unit', () => {
    expect(canvasScale({ x: 0, y: 0, w: 2518, h: 2058 }) * 2518).toBeCloseTo(4096)
    expect(canvasScale({ x: 0, y: 0, w: 100, h: 50 })).toBe(4)
  })

  it('paints the pixels the map is shown at, rounded up to a power of two, within those limits', () => {
    const stadium = { x: 0, y: 0, w: 2518, h: 2058 }
    // a phone: 358 CSS pixels across at 3 device pixels each
    expect(canvasScale(stadium, (358 / 2518) * 3)).toBe(0.5)
    expect(canvasScale(stadium, 0.3)).toBe(0.5)
    expect(canvasScale(stadium, 0.6)).toBe(1)
    // zoomed in 8 times: as many as the limit allows
    expect(canvasScale(stadium, (358 / 2518) * 3 * 8)).toBeCloseTo(4096 / 2518)
    // not laid out yet: the most
    expect(canvasScale(stadium, 0)).toBeCloseTo(4096 / 2518)
    expect(canvasScale({ x: 0, y: 0, w: 100, h: 50 }, 3)).toBe(4)
  })
})
