// The waiting room's pure decisions (server/queue/decide.ts): the opening, joins early and late,
// admissions at a set rate (earned by time, none while paused, no pile-up after a lull) or to a
// number of checkouts, the close on a sell-out, and what each person is told.
import { describe, expect, it } from 'vitest'
import {
  NO_WAITING_ROOM,
  SALE_OPENED,
  TYPE_OPENS_BEFORE_SALE,
  TYPE_SALE_TIME_TWICE,
} from '../../contracts/queue.ts'
import {
  admit,
  close,
  join,
  open,
  pause,
  placeOf,
  type Room,
  resume,
  setOnSale,
  statsOf,
  typeOpensAt,
} from '../../server/queue/decide.ts'

const T0 = Date.parse('2026-12-24T10:00:00.000Z')
const at = (ms: number) => new Date(T0 + ms).toISOString()

const room = (change: Partial<Room> = {}): Room => ({
  eventId: 'e1',
  organizerId: 'o1',
  opensAt: at(0),
  waitingRoom: true,
  admitPerMinute: 60,
  version: 1,
  early: 0,
  openedAt: null,
  nextLine: 1,
  admittedThrough: 0,
  creditAt: null,
  paused: false,
  closedAt: null,
  typeOpens: null,
  ...change,
})
const opened = (change: Partial<Room> = {}) => room({ openedAt: at(0), creditAt: at(0), ...change })
const rules = { admissionMinutes: 10, checkoutTarget: 5, inCheckout: 0 }
const admitted = (r: Room, now: number, inCheckout = 0) => {
  const [fact] = admit(r, at(now), { ...rules, inCheckout })
  return fact?.type === 'QueueAdmitted' ? fact.data : null
}

describe('the sale time', () => {
  it('may change freely before the opening; after it only the rate', () => {
    const change = {
      eventId: 'e1',
      organizerId: 'o1',
      opensAt: at(60_000),
      waitingRoom: true,
      admitPerMinute: 60,
    }
    expect(setOnSale(room(), change)[0]?.data).toMatchObject({ opensAt: at(60_000) })
    expect(() => setOnSale(opened(), change)).toThrow(SALE_OPENED)
    expect(() => setOnSale(opened(), { ...change, opensAt: at(0), waitingRoom: false })).toThrow(SALE_OPENED)
    expect(setOnSale(opened(), { ...change, opensAt: at(0), admitPerMinute: 120 })[0]?.data).toMatchObject({
      admitPerMinute: 120,
    })
  })

  it("gives ticket types later sale times of their own, kept until given again, never before the event's", () => {
    const change = {
      eventId: 'e1',
      organizerId: 'o1',
      opensAt: at(0),
      waitingRoom: false,
      admitPerMinute: null,
    }
    const later = [{ ticketTypeId: 't2', opensAt: '2026-12-24T12:00:00+02:00' }]
    const [set] = setOnSale(room(), { ...change, typeOpens: later })
    // written as UTC, as the event's time is
    expect(set?.data).toMatchObject({ typeOpens: [{ ticketTypeId: 't2', opensAt: at(0) }] })
    // absent: the last ones kept; an empty list: none
    const kept = room({ typeOpens: [{ ticketTypeId: 't2', opensAt: at(3_600_000) }] })
    expect(setOnSale(kept, change)[0]?.data).toMatchObject({
      typeOpens: [{ ticketTypeId: 't2', opensAt: at(3_600_000) }],
    })
    expect(setOnSale(kept, { ...change, typeOpens: [] })[0]?.data).not.toHaveProperty('typeOpens')
    // after the opening too: only the event's own time is fixed then
    expect(setOnSale(opened({ waitingRoom: false }), { ...change, typeOpens: later })[0]?.data).toMatchObject(
      {
        typeOpens: [{ ticketTypeId: 't2' }],
      },
    )
    expect(() =>
      setOnSale(room(), { ...change, typeOpens: [{ ticketTypeId: 't2', opensAt: at(-1) }] }),
    ).toThrow(TYPE_OPENS_BEFORE_SALE)
    expect(() => setOnSale(room(), { ...change, typeOpens: [...later, ...later] })).toThrow(
      TYPE_SALE_TIME_TWICE,
    )
    expect(typeOpensAt(kept, 't2')).toBe(at(3_600_000))
    expect(typeOpensAt(kept, 't1')).toBe(at(0))
  })
})

describe('joining and the opening', () => {
  it('puts an early join in the pre-queue with a draw, and a late one at the back', () => {
    const [early] = join(room({ early: 3 }), 'a1', at(-5000), () => 'abcdef012345')
    expect(early?.data).toMatchObject({ early: true, draw: 'abcdef012345', line: null })
    const [late] = join(opened({ nextLine: 7 }), 'a2', at(5000), () => 'x')
    expect(late?.data).toMatchObject({ early: false, draw: null, line: 7 })
    expect(() => join(room({ waitingRoom: false }), 'a3', at(0), () => 'x')).toThrow(NO_WAITING_ROOM)
    expect(join(opened({ closedAt: at(1) }), 'a4', at(2), () => 'x')).toEqual([])
  })

  it('opens at the sale time, once, with the pre-queue counted', () => {
    expect(open(room({ early: 4 }), at(-1))).toEqual([])
    expect(open(room({ early: 4 }), at(0))).toEqual([
      { type: 'QueueOpened', data: { eventId: 'e1', at: at(0), early: 4 } },
    ])
    expect(open(opened(), at(10))).toEqual([])
  })
})

describe('admissions at a set rate', () => {
  it('are earned by the time since the last, in line order, and carry over what a second did not give', () => {
    const r = opened({ nextLine: 101, admitPerMinute: 60 })
    expect(admitted(r, 999)).toBeNull()
    expect(admitted(r, 1500)).toMatchObject({
      from: 1,
      through: 1,
      creditAt: at(1000),
      expiresAt: at(1500 + 600_000),
    })
    expect(admitted(opened({ nextLine: 101, admittedThrough: 1, creditAt: at(1000) }), 2000)).toMatchObject({
      from: 2,
      through: 2,
    })
  })

  it('admit nobody while paused, and no more than two seconds’ worth after a lull', () => {
    expect(admitted(opened({ nextLine: 101, paused: true }), 30_000)).toBeNull()
    const lull = admitted(opened({ nextLine: 101, admitPerMinute: 600 }), 60_000)
    expect(lull).toMatchObject({ from: 1, through: 20, creditAt: at(60_000) })
  })

  it('admit no more than wait, and none twice', () => {
    expect(admitted(opened({ nextLine: 4, admitPerMinute: 6000 }), 10_000)).toMatchObject({
      from: 1,
      through: 3,
    })
    expect(admitted(opened({ nextLine: 4, admittedThrough: 3, admitPerMinute: 6000 }), 20_000)).toBeNull()
  })
})

describe('admissions following capacity', () => {
  it('bring the checkouts in progress up to the target', () => {
    const r = opened({ nextLine: 51, admitPerMinute: null })
    expect(admitted(r, 10, 0)).toMatchObject({ from: 1, through: 5 })
    expect(admitted(opened({ nextLine: 51, admitPerMinute: null, admittedThrough: 5 }), 20, 3)).toMatchObject(
      {
        from: 6,
        through: 7,
      },
    )
    expect(admitted(r, 30, 5)).toBeNull()
  })
})

describe('what a person is told', () => {
  it('is their place, how many are ahead and the wait; then the admission and its end', () => {
    const r = opened({ nextLine: 11, admittedThrough: 3, admitPerMinute: 30 })
    expect(placeOf(r, { accountId: 'a', line: 8, expiresAt: null }, at(5000))).toEqual({
      state: 'waiting',
      position: 5,
      ahead: 4,
      etaSeconds: 10,
    })
    const admission = { accountId: 'a', line: 2, draw: null, expiresAt: at(600_000) }
    expect(placeOf(r, admission, at(5000))).toEqual({ state: 'admitted', admissionExpiresAt: at(600_000) })
    expect(placeOf(r, admission, at(600_000))).toEqual({ state: 'expired' })
    expect(placeOf(room(), { accountId: 'a', line: null, expiresAt: null }, at(-1))).toEqual({
      state: 'pre-queue',
    })
    expect(
      placeOf(opened({ closedAt: at(9) }), { accountId: 'a', line: 8, expiresAt: null }, at(10)),
    ).toEqual({
      state: 'closed',
    })
    // a room closed by a sell-out leaves an admission running as it was; an event called off
    // closes the line to everyone in it, the admitted too
    const closed = opened({ admittedThrough: 3, closedAt: at(9) })
    expect(placeOf(closed, admission, at(10))).toEqual({ state: 'admitted', admissionExpiresAt: at(600_000) })
    expect(placeOf(closed, admission, at(10), true)).toEqual({ state: 'closed' })
  })

  it('says a line is paused instead of a wait while it is', () => {
    const r = opened({ nextLine: 11, admittedThrough: 3, admitPerMinute: 30, paused: true })
    const place = { accountId: 'a', line: 8, expiresAt: null }
    expect(placeOf(r, place, at(5000))).toEqual({ state: 'waiting', position: 5, ahead: 4, paused: true })
    // an admission running is not paused
    const admission = { accountId: 'a', line: 2, expiresAt: at(600_000) }
    expect(placeOf(r, admission, at(5000))).toEqual({ state: 'admitted', admissionExpiresAt: at(600_000) })
  })

  it('closes the room when the event sells out, once', () => {
    expect(close(opened(), true, at(5))).toEqual([
      { type: 'QueueClosed', data: { eventId: 'e1', at: at(5) } },
    ])
    expect(close(opened(), false, at(5))).toEqual([])
    expect(close(opened({ closedAt: at(1) }), true, at(5))).toEqual([])
  })
})

describe('what the organizer watches', () => {
  it('shows a room following capacity at the rate it has admitted, to two decimals', () => {
    const r = opened({ nextLine: 20, admittedThrough: 10, admitPerMinute: null })
    expect(statsOf(r, { inCheckout: 2, sold: 3 }, at(180_000))).toEqual({
      waiting: 9,
      admitted: 10,
      inCheckout: 2,
      sold: 3,
      admitPerMinute: 3.33,
      paused: false,
    })
    expect(statsOf(opened({ admitPerMinute: 45 }), { inCheckout: 0, sold: 0 }, at(1)).admitPerMinute).toBe(45)
  })
})

describe('an event called off', () => {
  it('closes its room, opened or not yet, once', () => {
    expect(close(room(), false, at(-1000), true)).toEqual([
      { type: 'QueueClosed', data: { eventId: 'e1', at: at(-1000) } },
    ])
    expect(close(opened({ nextLine: 5 }), false, at(1000), true)).toHaveLength(1)
    expect(close(opened({ closedAt: at(500) }), false, at(1000), true)).toEqual([])
    expect(close(room({ waitingRoom: false }), false, at(1000), true)).toEqual([])
    // not called off, not sold out: stays
    expect(close(opened({ nextLine: 5 }), false, at(1000))).toEqual([])
  })
})

describe('pausing', () => {
  it('stops a line, not a sale without a room; a line paused before its room was turned off may resume', () => {
    expect(pause(opened(), 'o1', at(5))).toEqual([
      { type: 'QueuePaused', data: { eventId: 'e1', by: 'o1', at: at(5) } },
    ])
    expect(pause(opened({ paused: true }), 'o1', at(5))).toEqual([])
    expect(() => pause(room({ waitingRoom: false }), 'o1', at(5))).toThrow(NO_WAITING_ROOM)
    expect(() => resume(room({ waitingRoom: false }), 'o1', at(5))).toThrow(NO_WAITING_ROOM)
    expect(resume(room({ waitingRoom: false, paused: true }), 'o1', at(5))).toHaveLength(1)
  })
})
