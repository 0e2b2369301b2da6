// A big seat map's reply (server/seating/map-text.ts): its gzip, made of chunks compressed apart and
// kept while their seats' statuses are the same, inflates to exactly its text, which is the map as
// read (each seat's status now), after seats change as before.
import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { SeatStatus } from '../../contracts/seating.ts'
import { keepWithin, seatMapTexts } from '../../server/seating/map-text.ts'
import type { MapSeat, SeatMapRead } from '../../server/seating/queries.ts'

const sections = [
  { name: 'Stalls ₹ स्टॉल', ticketTypeId: 'stalls' },
  { name: 'Balcony', ticketTypeId: 'balcony' },
]

/** rows of 25 seats: 4,000 in the stalls, 1,000 on the balcony, a few blocked */
function plan(): SeatMapRead {
  const seats: MapSeat[] = []
  sections.forEach((section, s) => {
    const rows = s === 0 ? 160 : 40
    for (let r = 0; r < rows; r++)
      for (let n = 1; n <= 25; n++)
        seats.push({
          id: `${s}-${r}-${n}`,
          section: section.name,
          ticketTypeId: section.ticketTypeId,
          row: s === 0 ? `R${r + 1}` : `बी${r + 1}`,
          number: n === 13 ? '12A' : n,
          x: n * 10,
          y: r * 12,
          status: n === 1 && r % 7 === 0 ? 'blocked' : 'free',
          accessible: n === 2 ? 'wheelchair' : false,
          orderId: null,
        })
  })
  return { version: 3, stage: { x: 0, y: -20, w: 250, h: 10 }, sections, seats }
}

/** the map's view as the route shapes it, with these seats held or sold */
function viewOf(map: SeatMapRead, taken: ReadonlyMap<string, 'held' | 'sold'>) {
  return {
    eventId: 'ev1',
    version: map.version,
    stage: map.stage,
    sections: map.sections.map((section) => {
      const rows: Array<{ label: string; seats: unknown[] }> = []
      for (const seat of map.seats.filter((s) => s.section === section.name)) {
        if (rows[rows.length - 1]?.label !== seat.row) rows.push({ label: seat.row, seats: [] })
        const status: SeatStatus = taken.get(seat.id) ?? seat.status
        rows[rows.length - 1]?.seats.push({
          id: seat.id,
          number: seat.number,
          x: seat.x,
          y: seat.y,
          status,
          accessible: seat.accessible,
        })
      }
      return {
        name: section.name,
        ticketType: section.ticketTypeId,
        ticketTypeId: section.ticketTypeId,
        price: 100,
        rows,
      }
    }),
  }
}

describe('a big seat map’s reply', () => {
  it('inflates to its text, the map with each seat’s status now, as seats are taken and given back', async () => {
    const map = plan()
    const taken = new Map<string, 'held' | 'sold'>()
    let ledger = 0
    const texts = seatMapTexts(
      {
        map: async () => map,
        plan: async () => ({ version: map.version, stage: map.stage, sections: map.sections }),
        taken: async () => [...taken].map(([id, status]) => ({ id, status })),
      },
      async () => String(ledger),
    )
    const header = (list: ReadonlyArray<{ name: string; ticketTypeId: string }>) =>
      list.map((s) => ({
        name: s.name,
        ticketType: s.ticketTypeId,
        ticketTypeId: s.ticketTypeId,
        price: 100,
      }))
    const check = async () => {
      const reply = await texts.reply('ev1', header)
      if (!reply) throw new Error('no reply')
      const text = reply.text()
      expect(JSON.parse(text)).toEqual(viewOf(map, taken))
      expect(Buffer.byteLength(text)).toBe(reply.bytes)
      const zipped = reply.gzip()
      expect(gunzipSync(zipped).toString()).toBe(text)
      return { text, zipped }
    }
    const first = await check()
    // about as small as the whole text gzipped at once
    expect(first.zipped.length).toBeLessThan(gzipSync(first.text).length * 1.1)
    for (const [id, status] of [
      ['0-0-5', 'held'],
      ['0-80-13', 'sold'],
      ['1-39-25', 'held'],
      ['0-0-1', 'held'],
    ] as const) {
      taken.set(id, status)
      ledger++
      await check()
    }
    taken.delete('0-80-13')
    taken.set('0-0-5', 'sold')
    ledger++
    await check()
  })
})

describe('the kept layouts and replies', () => {
  const sizes = (entries: Map<string, number>) => [...entries.keys()]

  it('drop the oldest past their number or their bytes, never the one just made', () => {
    const kept = new Map<string, number>()
    for (const [key, bytes] of [
      ['a', 10],
      ['b', 10],
      ['c', 10],
    ] as const) {
      kept.set(key, bytes)
      keepWithin(kept, 2, 1_000, (n) => n)
    }
    expect(sizes(kept)).toEqual(['b', 'c'])
    // a big one: the others go to make room for it
    kept.set('big', 25)
    keepWithin(kept, 2, 30, (n) => n)
    expect(sizes(kept)).toEqual(['big'])
    // one bigger than the whole allowance is still kept, alone
    kept.set('huge', 500)
    keepWithin(kept, 2, 30, (n) => n)
    expect(sizes(kept)).toEqual(['huge'])
  })
})
