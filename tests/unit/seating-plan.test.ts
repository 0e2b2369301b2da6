// The seat plan as the server keeps it (server/seating/plan.ts): ids that survive saving the plan
// again, seats placed where the organizer left them unplaced, every refusal the schema cannot make,
// each seated type's capacity, the held or sold seats a new plan would take away, and the seats it
// removes.
import { describe, expect, it } from 'vitest'
import { MAX_PLAN_SEATS, type SeatMapBody } from '../../contracts/seating.ts'
import {
  type EventTicketType,
  flatSeats,
  MAX_PLAN_ISSUES,
  type Plan,
  placePlan,
  seatId,
  seatsForSale,
  seatsRemoved,
  takenSeatsMoved,
} from '../../server/seating/plan.ts'

const ticketTypes: EventTicketType[] = [
  { id: 'tt-stalls', type: 'Stalls' },
  { id: 'tt-balcony', type: 'Balcony' },
]

type SeatIn = SeatMapBody['sections'][number]['rows'][number]['seats'][number]
const seats = (count: number, extra: Partial<SeatIn> = {}): SeatIn[] =>
  Array.from({ length: count }, (_, i) => ({ number: i + 1, ...extra }))

const twoSections = (): SeatMapBody => ({
  stage: { x: 0, y: -3, w: 10, h: 2 },
  sections: [
    {
      name: 'Stalls',
      ticketType: 'stalls',
      rows: [
        { label: 'A', seats: seats(3) },
        { label: 'B', seats: seats(2) },
      ],
    },
    { name: 'Balcony', ticketType: 'tt-balcony', rows: [{ label: 'A', seats: seats(2) }] },
  ],
})

const sectionOf = (body: SeatMapBody, s: number) => {
  const section = body.sections[s]
  if (!section) throw new Error(`no section ${s}`)
  return section
}
const rowOf = (body: SeatMapBody, s: number, r: number) => {
  const row = sectionOf(body, s).rows[r]
  if (!row) throw new Error(`no row ${r}`)
  return row
}

const placed = (body: SeatMapBody, eventId = 'e1'): Plan => {
  const outcome = placePlan(eventId, body, ticketTypes)
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.issues))
  return outcome.plan
}

const issuesOf = (body: SeatMapBody, types = ticketTypes) => {
  const outcome = placePlan('e1', body, types)
  return outcome.ok ? [] : outcome.issues
}

describe('seatId', () => {
  it('gives the same seat the same id, ten lowercase letters and digits', () => {
    const id = seatId('e1', 'Stalls', 'A', 12)
    expect(id).toMatch(/^[a-z0-9]{10}$/)
    expect(seatId('e1', 'Stalls', 'A', 12)).toBe(id)
  })

  it('takes a seat numbered 12 and one labelled "12" for the same seat', () => {
    expect(seatId('e1', 'Stalls', 'A', '12')).toBe(seatId('e1', 'Stalls', 'A', 12))
  })

  it('gives another event, section, row or number another id', () => {
    const ids = [
      seatId('e1', 'Stalls', 'A', 12),
      seatId('e2', 'Stalls', 'A', 12),
      seatId('e1', 'Balcony', 'A', 12),
      seatId('e1', 'Stalls', 'B', 12),
      seatId('e1', 'Stalls', 'A', 13),
    ]
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('keeps the parts apart: moving a space from one part to the next is another seat', () => {
    expect(seatId('e1', 'Upper Stalls', 'A', 1)).not.toBe(seatId('e1', 'Upper', 'Stalls A', 1))
  })

  it('gives 100,000 seats of a stadium 100,000 ids, each of ten characters', () => {
    const ids = new Set<string>()
    for (let row = 0; row < 200; row++) {
      for (let n = 0; n < 500; n++) ids.add(seatId('stadium', 'North', `R${row}`, n))
    }
    expect(ids.size).toBe(100_000)
    for (const id of [...ids].slice(0, 1000)) expect(id).toHaveLength(10)
  })
})

describe('placePlan', () => {
  it('given a plan without coordinates, places each seat by its index in the row and each row down the plan, an empty row between sections', () => {
    const plan = placed(twoSections())
    const at = (section: number, row: number) =>
      plan.sections[section]?.rows[row]?.seats.map((seat) => [seat.x, seat.y])
    expect(at(0, 0)).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ])
    expect(at(0, 1)).toEqual([
      [0, 1],
      [1, 1],
    ])
    // row 2 is the gap between the sections
    expect(at(1, 0)).toEqual([
      [0, 3],
      [1, 3],
    ])
  })

  it("keeps the organizer's own x and y, and fills in only what is missing", () => {
    const body = twoSections()
    rowOf(body, 0, 0).seats = [{ number: 1, x: 40, y: 7.5 }, { number: 2, x: 44 }, { number: 3 }]
    const row = placed(body).sections[0]?.rows[0]?.seats
    expect(row?.map((seat) => [seat.x, seat.y])).toEqual([
      [40, 7.5],
      [44, 0],
      [2, 0],
    ])
  })

  it('names each section by its ticket type id, found by id or by name whatever the case', () => {
    const plan = placed(twoSections())
    expect(plan.sections.map((section) => [section.name, section.ticketTypeId])).toEqual([
      ['Stalls', 'tt-stalls'],
      ['Balcony', 'tt-balcony'],
    ])
    expect(plan.stage).toEqual({ x: 0, y: -3, w: 10, h: 2 })
  })

  it('gives each seat the id of its event, section, row and number, the same when saved again', () => {
    const first = placed(twoSections())
    const again = placed(twoSections())
    expect(first.sections[0]?.rows[1]?.seats[1]?.id).toBe(seatId('e1', 'Stalls', 'B', 2))
    expect(flatSeats(again).map((seat) => seat.id)).toEqual(flatSeats(first).map((seat) => seat.id))
    expect(new Set(flatSeats(first).map((seat) => seat.id)).size).toBe(7)
  })

  it('reads accessible: true as a wheelchair space, nothing said as not accessible, and blocked as given', () => {
    const body = twoSections()
    rowOf(body, 0, 0).seats = [
      { number: 1, accessible: true },
      { number: 2, accessible: 'companion' },
      { number: 3, accessible: false, blocked: true },
      { number: 4 },
    ]
    const row = placed(body).sections[0]?.rows[0]?.seats
    expect(row?.map((seat) => [seat.accessible, seat.blocked])).toEqual([
      ['wheelchair', false],
      ['companion', false],
      [false, true],
      [false, false],
    ])
  })

  it('has no stage when none is given', () => {
    const { stage: _, ...body } = twoSections()
    expect(placed(body).stage).toBeNull()
  })

  describe('refuses', () => {
    it('a ticket type the event does not have', () => {
      const body = twoSections()
      sectionOf(body, 1).ticketType = 'Gallery'
      expect(issuesOf(body)).toEqual([
        {
          field: 'sections.1.ticketType',
          message: 'Section "Balcony": no ticket type "Gallery" on this event.',
        },
      ])
    })

    it('a name two of the ticket types share', () => {
      const body = twoSections()
      const types = [...ticketTypes, { id: 'tt-stalls-2', type: 'STALLS' }]
      expect(issuesOf(body, types)).toEqual([
        {
          field: 'sections.0.ticketType',
          message: 'Section "Stalls": more than one ticket type is named "stalls"; name it by its id.',
        },
      ])
    })

    it('a ticket type sold in two sections, named once by name and once by id', () => {
      const body = twoSections()
      sectionOf(body, 1).ticketType = 'tt-stalls'
      expect(issuesOf(body)).toEqual([
        {
          field: 'sections.1.ticketType',
          message:
            'Section "Balcony": ticket type "Stalls" is already the ticket type of section "Stalls"; a ticket type has one section.',
        },
      ])
    })

    it('two sections of one name whatever the case', () => {
      const body = twoSections()
      sectionOf(body, 1).name = 'STALLS'
      expect(issuesOf(body)).toEqual([
        { field: 'sections.1.name', message: 'There is more than one section named "STALLS".' },
      ])
    })

    it('two rows of one label in a section', () => {
      const body = twoSections()
      rowOf(body, 0, 1).label = 'a'
      expect(issuesOf(body)).toEqual([
        { field: 'sections.0.rows.1.label', message: 'Section "Stalls": there is more than one row "a".' },
      ])
    })

    it('two seats of one number in a row, 7 and "7" alike', () => {
      const body = twoSections()
      rowOf(body, 0, 0).seats = [{ number: 7 }, { number: 8 }, { number: '7' }]
      expect(issuesOf(body)).toEqual([
        {
          field: 'sections.0.rows.0.seats.2.number',
          message: 'Section "Stalls", row "A": there is more than one seat 7.',
        },
      ])
    })

    it('two seats drawn in one place, whichever section or row they are in', () => {
      const body = twoSections()
      rowOf(body, 0, 0).seats = [{ number: 1, x: 4, y: 9 }, { number: 2 }, { number: 3, x: 4, y: 9 }]
      rowOf(body, 1, 0).seats = [
        { number: 1, x: 4, y: 9 },
        { number: 2, x: 5, y: 9 },
      ]
      expect(issuesOf(body)).toEqual([
        {
          field: 'sections.0.rows.0.seats.2',
          message:
            'The seat 3 of row "A" in section "Stalls" is drawn where the seat 1 of row "A" in section "Stalls" is; move one of them.',
        },
        {
          field: 'sections.1.rows.0.seats.0',
          message:
            'The seat 1 of row "A" in section "Balcony" is drawn where the seat 1 of row "A" in section "Stalls" is; move one of them.',
        },
      ])
    })

    it('more seats than a plan may hold', () => {
      const perRow = 1000
      const rows = Array.from({ length: MAX_PLAN_SEATS / perRow + 1 }, (_, r) => ({
        label: `R${r}`,
        seats: seats(perRow),
      }))
      const body: SeatMapBody = { sections: [{ name: 'Ground', ticketType: 'Stalls', rows }] }
      expect(issuesOf(body)).toEqual([
        {
          field: 'sections',
          message: `A plan has at most ${MAX_PLAN_SEATS} seats; this one has ${MAX_PLAN_SEATS + perRow}.`,
        },
      ])
    })

    it('two seats whose ids would be the same', () => {
      // a hash that collides for every seat numbered 1 or 2 of the same row
      const clumsy = (_event: string, section: string, row: string, number: string | number) =>
        `${section}-${row}-${Number(number) <= 2 ? 'x' : number}`.toLowerCase()
      const outcome = placePlan('e1', twoSections(), ticketTypes, clumsy)
      expect(outcome.ok ? [] : outcome.issues).toEqual([
        {
          field: 'sections.0.rows.0.seats.1',
          message:
            'The seat 2 of row "A" in section "Stalls" and the seat 1 of row "A" in section "Stalls" would get the same id; renumber or rename one of them.',
        },
        {
          field: 'sections.0.rows.1.seats.1',
          message:
            'The seat 2 of row "B" in section "Stalls" and the seat 1 of row "B" in section "Stalls" would get the same id; renumber or rename one of them.',
        },
        {
          field: 'sections.1.rows.0.seats.1',
          message:
            'The seat 2 of row "A" in section "Balcony" and the seat 1 of row "A" in section "Balcony" would get the same id; renumber or rename one of them.',
        },
      ])
    })

    it('with every issue found, in the order of the plan', () => {
      const body = twoSections()
      sectionOf(body, 1).name = 'stalls'
      sectionOf(body, 1).ticketType = 'Gallery'
      rowOf(body, 0, 1).label = 'A'
      expect(issuesOf(body).map((issue) => issue.field)).toEqual([
        'sections.0.rows.1.label',
        'sections.1.name',
        'sections.1.ticketType',
      ])
    })

    it('with the first issues found, no more than a person reads', () => {
      const body = twoSections()
      sectionOf(body, 1).ticketType = 'Gallery'
      rowOf(body, 0, 0).seats = Array.from({ length: 200 }, () => ({ number: 1 }))
      const issues = issuesOf(body)
      expect(issues).toHaveLength(MAX_PLAN_ISSUES)
      expect(issues[0]?.field).toBe('sections.0.rows.0.seats.1.number')
      expect(issues.at(-1)?.field).toBe(`sections.0.rows.0.seats.${MAX_PLAN_ISSUES}.number`)
    })
  })
})

describe('seatsForSale', () => {
  it("counts each seated type's seats less the blocked ones", () => {
    const body = twoSections()
    rowOf(body, 0, 1).seats = [{ number: 1, blocked: true }, { number: 2 }]
    rowOf(body, 1, 0).seats = [
      { number: 1, blocked: true },
      { number: 2, blocked: true },
    ]
    expect(seatsForSale(placed(body))).toEqual(
      new Map([
        ['tt-stalls', 4],
        ['tt-balcony', 0],
      ]),
    )
  })
})

describe('flatSeats', () => {
  it('lists every seat with its section, ticket type and row, in the plan’s order', () => {
    const body = twoSections()
    rowOf(body, 1, 0).seats = [{ number: '1A', accessible: true, blocked: true }]
    const flat = flatSeats(placed(body))
    expect(flat).toHaveLength(6)
    expect(flat.at(-1)).toEqual({
      id: seatId('e1', 'Balcony', 'A', '1A'),
      section: 'Balcony',
      ticketTypeId: 'tt-balcony',
      row: 'A',
      number: '1A',
      x: 0,
      y: 3,
      blocked: true,
      accessible: 'wheelchair',
    })
    expect(flat.map((seat) => `${seat.section} ${seat.row}${seat.number}`).slice(0, 5)).toEqual([
      'Stalls A1',
      'Stalls A2',
      'Stalls A3',
      'Stalls B1',
      'Stalls B2',
    ])
  })
})

describe('takenSeatsMoved', () => {
  const before = placed(twoSections())
  const id = (section: string, row: string, number: number) => seatId('e1', section, row, number)
  const taken = new Set([id('Stalls', 'A', 2), id('Stalls', 'A', 3), id('Balcony', 'A', 1)])

  it('given the same plan saved again, moves nothing', () => {
    expect(takenSeatsMoved(before, placed(twoSections()), taken)).toEqual([])
  })

  it('given free seats changed however, moves nothing taken', () => {
    const body = twoSections()
    rowOf(body, 0, 1).seats = [{ number: 1, x: 9, y: 9, blocked: true }]
    sectionOf(body, 1).rows.push({ label: 'B', seats: seats(4) })
    expect(takenSeatsMoved(before, placed(body), taken)).toEqual([])
  })

  it('reports the seats a row added above pushes down: drawn by default, they are drawn elsewhere', () => {
    const body = twoSections()
    sectionOf(body, 0).rows.push({ label: 'C', seats: seats(4) })
    expect(takenSeatsMoved(before, placed(body), taken)).toEqual([id('Balcony', 'A', 1)])
  })

  it('reports a taken seat that vanishes: renumbered, or its section removed', () => {
    const body = twoSections()
    rowOf(body, 0, 0).seats = [{ number: 1 }, { number: 2 }, { number: 4 }]
    expect(takenSeatsMoved(before, placed(body), taken)).toEqual([id('Stalls', 'A', 3)])

    const stallsOnly: SeatMapBody = { stage: null, sections: [sectionOf(twoSections(), 0)] }
    expect(takenSeatsMoved(before, placed(stallsOnly), taken)).toEqual([id('Balcony', 'A', 1)])
  })

  it('reports a taken seat drawn elsewhere', () => {
    const body = twoSections()
    rowOf(body, 0, 0).seats = [{ number: 1 }, { number: 2, x: 1, y: 0.5 }, { number: 3, x: 5 }]
    expect(takenSeatsMoved(before, placed(body), taken)).toEqual(
      [id('Stalls', 'A', 2), id('Stalls', 'A', 3)].sort(),
    )
  })

  it('reports a taken seat that becomes blocked, and not one that was blocked already', () => {
    const body = twoSections()
    rowOf(body, 1, 0).seats = [{ number: 1, blocked: true }, { number: 2 }]
    const blocked = placed(body)
    expect(takenSeatsMoved(before, blocked, taken)).toEqual([id('Balcony', 'A', 1)])
    expect(takenSeatsMoved(blocked, blocked, taken)).toEqual([])
  })

  it('reports the seats of a section sold as another ticket type, and of a section renamed', () => {
    const body = twoSections()
    sectionOf(body, 1).ticketType = 'Stalls'
    sectionOf(body, 0).ticketType = 'Balcony'
    expect(takenSeatsMoved(before, placed(body), taken)).toEqual([...taken].sort())

    const renamed = twoSections()
    sectionOf(renamed, 1).name = 'Circle'
    expect(takenSeatsMoved(before, placed(renamed), taken)).toEqual([id('Balcony', 'A', 1)])
  })

  it('given no plan before, reports only taken seats the plan lacks', () => {
    expect(takenSeatsMoved(null, before, new Set([id('Stalls', 'A', 1), 'gone000000']))).toEqual([
      'gone000000',
    ])
  })

  it('given nothing taken, allows any plan', () => {
    expect(takenSeatsMoved(before, placed({ sections: [sectionOf(twoSections(), 1)] }), new Set())).toEqual(
      [],
    )
  })
})

describe('seatsRemoved', () => {
  const before = placed(twoSections())
  const id = (section: string, row: string, number: number) => seatId('e1', section, row, number)

  it('names none for a first plan, or for the same plan saved again', () => {
    expect(seatsRemoved(null, before)).toEqual([])
    expect(seatsRemoved(before, placed(twoSections()))).toEqual([])
  })

  it('names the seats a new plan no longer has, in the old plan’s order: renumbered, a row or section gone', () => {
    const body = twoSections()
    rowOf(body, 0, 0).seats = [{ number: 1 }, { number: 4 }]
    sectionOf(body, 0).rows = [rowOf(body, 0, 0)]
    body.sections = [sectionOf(body, 0)]
    expect(seatsRemoved(before, placed(body))).toEqual([
      id('Stalls', 'A', 2),
      id('Stalls', 'A', 3),
      id('Stalls', 'B', 1),
      id('Stalls', 'B', 2),
      id('Balcony', 'A', 1),
      id('Balcony', 'A', 2),
    ])
  })

  it('names no seat only moved, blocked or given another ticket type', () => {
    const body = twoSections()
    rowOf(body, 0, 0).seats = [{ number: 1, x: 7 }, { number: 2, blocked: true }, { number: 3 }]
    sectionOf(body, 1).ticketType = 'Stalls'
    sectionOf(body, 0).ticketType = 'Balcony'
    expect(seatsRemoved(before, placed(body))).toEqual([])
  })
})
