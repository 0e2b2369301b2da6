// The seats a section offers together (server/seating/best.ts): who sits next to whom across an
// aisle, the single empty seats a choice strands, the best seats near the stage, and when a buyer's
// own choice is refused for stranding one.
import { describe, expect, it } from 'vitest'
import type { Box, SeatStatus } from '../../contracts/seating.ts'
import { bestSeats, type RowOfSeats, selectionRefusal, singlesLeft } from '../../server/seating/best.ts'
import { freeRuns } from '../../server/seating/runs.ts'

const statusOf: Record<string, SeatStatus> = { o: 'free', h: 'held', s: 'sold', x: 'blocked' }

/**
 * A row drawn as text, one letter a seat: o free, h held, s sold, x blocked; `|` an aisle (two
 * seats' width of floor). Seats are A1, A2… by their place in the row, one apart in x; y is `y`.
 */
function row(label: string, picture: string, y = 0): RowOfSeats {
  const seats: RowOfSeats['seats'] = []
  let x = 0
  for (const mark of picture) {
    if (mark === '|') {
      x += 2
      continue
    }
    const status = statusOf[mark]
    if (!status) throw new Error(`no seat "${mark}"`)
    seats.push({ id: `${label}${seats.length + 1}`, x, y, status })
    x += 1
  }
  return { label, seats }
}

/** a section drawn as text, one row a line from the front: A, B, C… */
const section = (...pictures: string[]) =>
  pictures.map((picture, y) => row(String.fromCharCode(65 + y), picture, y))

describe('singlesLeft', () => {
  it('finds what the rows’ runs of free seats find, before and after the choice, on any rows', () => {
    // the rule by its definition: the runs of one seat after the choice, less those before it
    const byRuns = (rows: RowOfSeats[], chosen: ReadonlySet<string>) => {
      const alone = (runs: ReturnType<typeof freeRuns>) =>
        runs
          .filter((run) => run.end - run.start === 1)
          .map((run) => (rows[run.row] as RowOfSeats).seats[run.start]?.id)
      const before = new Set(alone(freeRuns(rows)))
      const after = freeRuns(rows, (seat) => seat.status === 'free' && !chosen.has(seat.id))
      return alone(after).filter((id) => !before.has(id))
    }
    // a seeded walk (the same rows each run): rows of up to 14 seats, any status, aisles and
    // uneven gaps, and any seats chosen (taken ones too)
    let state = 40
    const next = () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31
      return state / 2 ** 31
    }
    const kinds: SeatStatus[] = ['free', 'free', 'free', 'held', 'sold', 'blocked']
    let compared = 0
    for (let trial = 0; trial < 2_000; trial++) {
      const rows: RowOfSeats[] = []
      for (let r = 0; r < 1 + Math.floor(next() * 3); r++) {
        let x = 0
        const seats: RowOfSeats['seats'] = []
        for (let i = 0; i < 1 + Math.floor(next() * 14); i++) {
          seats.push({
            id: `R${r}S${i}`,
            x,
            y: r,
            status: kinds[Math.floor(next() * kinds.length)] as SeatStatus,
          })
          x += next() < 0.15 ? 2 + next() * 3 : 1 + (next() < 0.2 ? next() * 0.6 : 0)
        }
        rows.push({ label: `R${r}`, seats })
      }
      const chosen = new Set(
        rows.flatMap((row) => row.seats.filter(() => next() < 0.3).map((seat) => seat.id)),
      )
      const expected = byRuns(rows, chosen)
      expect(singlesLeft(rows, chosen), JSON.stringify({ rows, chosen: [...chosen] })).toEqual(expected)
      if (expected.length > 0) compared++
    }
    // the walk met choices that strand seats, not only ones that strand none
    expect(compared).toBeGreaterThan(200)
  })

  it("given a row's end, strands the seat left between it and the choice", () => {
    expect(singlesLeft(section('oooo'), new Set(['A2', 'A3']))).toEqual(['A1', 'A4'])
  })

  it('given taken seats, strands the seat left between them and the choice', () => {
    expect(singlesLeft(section('hooosoo'), new Set(['A2', 'A3']))).toEqual(['A4'])
  })

  it('strands nothing when the choice takes a whole run or leaves two', () => {
    expect(singlesLeft(section('hooos'), new Set(['A2', 'A3', 'A4']))).toEqual([])
    expect(singlesLeft(section('oooo'), new Set(['A1', 'A2']))).toEqual([])
  })

  it('does not count a seat that was alone before the choice', () => {
    expect(singlesLeft(section('ohoooo'), new Set(['A3', 'A4', 'A5']))).toEqual(['A6'])
  })

  it('takes an aisle for a row end: the seats across it are no neighbours', () => {
    expect(singlesLeft(section('oo|oo'), new Set(['A1']))).toEqual(['A2'])
    expect(singlesLeft(section('oooo'), new Set(['A1']))).toEqual([])
    expect(singlesLeft(section('oo|oo'), new Set(['A1', 'A2']))).toEqual([])
  })

  it('takes a gap up to half again the narrowest for seats side by side, and a wider one for an aisle', () => {
    const spaced = (xs: number[]): RowOfSeats[] => [
      { label: 'A', seats: xs.map((x, i) => ({ id: `A${i + 1}`, x, y: 0, status: 'free' as const })) },
    ]
    expect(singlesLeft(spaced([0, 1, 2.5, 3.5]), new Set(['A1']))).toEqual([])
    expect(singlesLeft(spaced([0, 1, 2.6, 3.6]), new Set(['A1']))).toEqual(['A2'])
    // drawn right to left, the same
    expect(singlesLeft(spaced([3.6, 2.6, 1, 0]), new Set(['A1']))).toEqual(['A2'])
  })

  it('keeps a row side by side when one seat was moved a little towards its neighbour', () => {
    const spaced = (xs: number[]): RowOfSeats[] => [
      { label: 'A', seats: xs.map((x, i) => ({ id: `A${i + 1}`, x, y: 0, status: 'free' as const })) },
    ]
    // the last seat half a seat nearer: the row's usual gap is still 1, not 0.5
    const nudged = spaced([0, 1, 2, 3, 4, 5, 6, 7, 8, 8.5])
    expect(singlesLeft(nudged, new Set(['A1', 'A2']))).toEqual([])
    expect(singlesLeft(nudged, new Set(['A2', 'A3']))).toEqual(['A1'])
    // four together: seats next to each other in the row's order
    const best = (bestSeats(nudged, 4, null) ?? []).map((id) => Number(id.slice(1))).sort((a, b) => a - b)
    expect(best).toHaveLength(4)
    expect(best.at(-1)).toBe((best[0] ?? 0) + 3)
    // an aisle as wide as two seats is still an aisle beside it
    expect(singlesLeft(spaced([0, 1, 3, 4, 5, 5.5]), new Set(['A1']))).toEqual(['A2'])
  })

  it('strands nothing new in a row of one seat', () => {
    expect(singlesLeft(section('o', 'oo'), new Set(['B1']))).toEqual(['B2'])
    expect(singlesLeft(section('o'), new Set())).toEqual([])
  })
})

describe('bestSeats', () => {
  const full = section('oooooooooo', 'oooooooooo', 'oooooooooo')

  it('given an empty section and no stage, offers the middle of the front row', () => {
    expect(bestSeats(full, 2, null)).toEqual(['A5', 'A6'])
    expect(bestSeats(full, 3, null)).toEqual(['A4', 'A5', 'A6'])
  })

  it("centres on the stage's centre line", () => {
    const offRight: Box = { x: 6, y: -3, w: 6, h: 2 }
    expect(bestSeats(full, 2, offRight)).toEqual(['A9', 'A10'])
  })

  it('starts from the rows nearest the stage, wherever it stands', () => {
    const below: Box = { x: 0, y: 5, w: 9, h: 1 }
    expect(bestSeats(full, 2, below)).toEqual(['C5', 'C6'])
  })

  it('weighs a row nearer as two seats nearer the centre line', () => {
    // the front row's free seats four off the centre line: the second row's middle is better
    expect(bestSeats(section('ooxxxxxxoo', 'oooooooooo'), 2, null)).toEqual(['B5', 'B6'])
    // one off it: the front row still wins
    expect(bestSeats(section('xxxooxxxxx', 'oooooooooo'), 2, null)).toEqual(['A4', 'A5'])
  })

  it('counts in seats and rows, whatever the scale the plan is drawn at', () => {
    const scaled = (rows: RowOfSeats[]) =>
      rows.map((r) => ({
        ...r,
        seats: r.seats.map((seat) => ({ ...seat, x: seat.x * 24, y: 100 + seat.y * 30 })),
      }))
    expect(bestSeats(scaled(section('ooxxxxxxoo', 'oooooooooo')), 2, null)).toEqual(['B5', 'B6'])
    expect(bestSeats(scaled(section('xxxooxxxxx', 'oooooooooo')), 2, null)).toEqual(['A4', 'A5'])
  })

  it('passes over seats that would strand one, then takes them when nothing else fits', () => {
    expect(bestSeats(section('xxxoooxxxx', 'oooooooooo'), 2, null)).toEqual(['B5', 'B6'])
    expect(bestSeats(section('xxxoooxxxx', 'ssssssssss'), 2, null)).toEqual(['A5', 'A6'])
  })

  it('takes the end of a run rather than strand a seat in it, the earlier end of two as good', () => {
    expect(bestSeats(section('ooooo'), 2, null)).toEqual(['A1', 'A2'])
  })

  it('keeps a group on one side of an aisle', () => {
    expect(bestSeats(section('oooo|oooo'), 4, null)).toEqual(['A1', 'A2', 'A3', 'A4'])
  })

  it('given no run that holds them all, splits: the largest group first, the rest beside it', () => {
    expect(bestSeats(section('xxoooxxxxx', 'xxxooooxxx', 'ssssssssss'), 5, null)).toEqual([
      'B4',
      'B5',
      'B6',
      'B7',
      'A5',
    ])
  })

  it('splits into groups as large as the runs allow', () => {
    expect(bestSeats(section('ohoohooo'), 6, null)).toEqual(['A6', 'A7', 'A8', 'A3', 'A4', 'A1'])
  })

  it('offers nothing when the section has fewer free seats than asked', () => {
    expect(bestSeats(section('ohoxos', 'hhhh'), 4, null)).toBeNull()
    expect(bestSeats(section('ohoxos', 'hhhh'), 3, null)).toHaveLength(3)
  })

  it('answers the same every time', () => {
    const mixed = section('ohooooxooo', 'oooo|oooohs', 'sooooooooo')
    const first = bestSeats(mixed, 4, null)
    expect(bestSeats(mixed, 4, null)).toEqual(first)
  })
})

describe('selectionRefusal', () => {
  it('accepts seats that strand nobody', () => {
    expect(selectionRefusal(section('oooo'), new Set(['A1', 'A2']))).toBeNull()
  })

  it('refuses seats that strand one when others would not', () => {
    expect(selectionRefusal(section('oooo'), new Set(['A2', 'A3']))).toEqual({ reason: 'single' })
    expect(selectionRefusal(section('ooo', 'oooo'), new Set(['A1', 'A2']))).toEqual({ reason: 'single' })
  })

  it('accepts them when every choice of that many seats would strand one', () => {
    expect(selectionRefusal(section('xooox', 'soh'), new Set(['A2', 'A3']))).toBeNull()
  })

  it('judges by the number of seats given', () => {
    // two seats would fit without a single in the run of two; four would not fit anywhere
    expect(selectionRefusal(section('oooxoo'), new Set(['A2']), 2)).toEqual({ reason: 'single' })
    expect(selectionRefusal(section('oooxoo'), new Set(['A2']), 4)).toBeNull()
  })
})

describe("a stadium's section of 50,000 seats", () => {
  const rows = 100
  const perRow = 500
  const stadium = (free: (row: number, seat: number) => boolean): RowOfSeats[] =>
    Array.from({ length: rows }, (_, r) => ({
      label: `R${r + 1}`,
      seats: Array.from({ length: perRow }, (_, i) => ({
        id: `r${r + 1}s${i + 1}`,
        x: i + Math.floor(i / 50) * 2, // an aisle every fifty seats
        y: r,
        status: free(r, i) ? ('free' as const) : ('sold' as const),
      })),
    }))

  it('offers the middle of the front row when empty', () => {
    const empty = stadium(() => true)
    // the centre line falls in the aisle between seats 250 and 251: the group keeps to one side
    expect(bestSeats(empty, 4, null)).toEqual(['r1s247', 'r1s248', 'r1s249', 'r1s250'])
    expect(
      bestSeats(
        stadium((r) => r >= 60),
        4,
        null,
      ),
    ).toEqual(['r61s247', 'r61s248', 'r61s249', 'r61s250'])
  })

  it('finds the one run that holds them far back, and splits when none does', () => {
    const nearlySold = stadium((r, i) => (r === 79 && i >= 120 && i < 124) || (r === 2 && i >= 10 && i < 13))
    expect(bestSeats(nearlySold, 4, null)).toEqual(['r80s121', 'r80s122', 'r80s123', 'r80s124'])
    expect(bestSeats(nearlySold, 7, null)).toEqual([
      'r80s121',
      'r80s122',
      'r80s123',
      'r80s124',
      'r3s11',
      'r3s12',
      'r3s13',
    ])
    expect(bestSeats(nearlySold, 8, null)).toBeNull()
    expect(singlesLeft(nearlySold, new Set(['r80s122']))).toEqual(['r80s121'])
    expect(selectionRefusal(nearlySold, new Set(['r80s122']), 1)).toEqual({ reason: 'single' })
  })
})
