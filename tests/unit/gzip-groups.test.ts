// A JSON array gzipped from groups compressed apart (server/http/gzip-groups.ts) is one ordinary
// gzip member: it inflates to exactly the text, multi-byte characters and all, and stays about as
// small as the whole text gzipped at once.
import { createHash, randomBytes } from 'node:crypto'
import { crc32, gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  compressedBytes,
  crc32Combine,
  type GzipItem,
  groupsOf,
  gzipJsonArray,
} from '../../server/http/gzip-groups.ts'

// Ids look random but are the same on every run: where groups and slices end depends on them (as
// content-defined cuts do on their content), so the tests that bound the bytes compressed again
// measure one fixed layout, not a new draw each run (random ids made those bounds fail now and then).
let drawn = 0
const newId = () => createHash('sha256').update(`gzip-groups test id ${drawn++}`).digest('hex').slice(0, 24)
const item = (i: number, extra = ''): GzipItem => {
  const id = newId()
  return {
    id,
    json: JSON.stringify({ _id: id, title: `Event ${i} ₹ कार्यक्रम${extra}`, price: i * 10, candidates: [] }),
  }
}
const arrayOf = (items: GzipItem[]) => `[${items.map((i) => i.json).join(',')}]`
/** an event object as the listing has it during a sale: its attendees, then its ticket types */
const event = (id: string, buyers: string[], left: number): GzipItem => ({
  id,
  json: JSON.stringify({
    _id: id,
    title: 'Big night',
    candidates: buyers,
    ticketTypes: [{ available: left }],
  }),
})

describe('gzipped from groups', () => {
  it('inflates to exactly the array, for none, one and many items', () => {
    for (const count of [0, 1, 2, 17, 1000]) {
      const items = Array.from({ length: count }, (_, i) => item(i))
      const text = arrayOf(items)
      expect(gunzipSync(gzipJsonArray(items)).toString('utf8')).toBe(text)
    }
  })

  it('still inflates exactly once items change, are added or go, reusing the groups that did not', () => {
    const items = Array.from({ length: 300 }, (_, i) => item(i))
    gzipJsonArray(items)
    items[150] = { id: items[150]?.id as string, json: item(150, ' changed').json }
    items.splice(10, 1)
    items.push(item(301))
    const text = arrayOf(items)
    expect(gunzipSync(gzipJsonArray(items)).toString('utf8')).toBe(text)
  })

  it('is not much bigger than the whole text gzipped at once', () => {
    const items = Array.from({ length: 1000 }, (_, i) => item(i))
    const text = arrayOf(items)
    const grouped = gzipJsonArray(items).length
    const whole = gzipSync(text).length
    expect(grouped).toBeLessThan(whole * 1.1)
  })

  it('compresses a group again when the group before it, its dictionary, changed', () => {
    const items = Array.from({ length: 600 }, (_, i) => item(i))
    gzipJsonArray(items)
    // each change is somewhere else in its group: at its end, the text just before the next group
    for (const at of [0, 37, 150, 151, 299, 420, 599]) {
      items[at] = { id: items[at]?.id as string, json: item(at, ` changed ${'é'.repeat(at % 7)}`).json }
      const text = arrayOf(items)
      expect(gunzipSync(gzipJsonArray(items)).toString('utf8')).toBe(text)
    }
  })

  it('groups big items on their own', () => {
    const big = Array.from({ length: 5 }, (_, i) => item(i, 'x'.repeat(100_000)))
    const text = arrayOf(big)
    expect(gunzipSync(gzipJsonArray(big)).toString('utf8')).toBe(text)
  })

  it('puts an item of 4 kB or more in a group of its own; an item grown past it leaves the groups after it as they were', () => {
    // a listing during a sale: small events, and events whose attendees made them 10-20 kB
    const items = Array.from({ length: 200 }, (_, i) =>
      item(i, i % 3 === 0 ? 'a'.repeat(10_000 + i * 50) : ''),
    )
    const groups = groupsOf(items)
    expect(groups.flat()).toEqual(items)
    for (const group of groups) {
      const bigOnes = group.filter((i) => i.json.length >= 4 * 1024)
      if (bigOnes.length > 0) expect(group).toEqual(bigOnes.slice(0, 1))
    }
    // the small ones are still grouped
    expect(groups.filter((g) => g.length > 1).length).toBeGreaterThan(0)
    // one item grows past 4 kB: the groups not next to it stay as they were
    const grown = [...items]
    grown[100] = { id: items[100]?.id as string, json: item(100, 'b'.repeat(9_000)).json }
    const after = groupsOf(grown)
    const at = after.findIndex((g) => g.includes(grown[100] as GzipItem))
    expect(after[at]).toEqual([grown[100]])
    expect(after.slice(at + 3)).toEqual(groups.slice(groups.length - (after.length - at - 3)))
    expect(gunzipSync(gzipJsonArray(grown)).toString('utf8')).toBe(arrayOf(grown))
  })

  it('compresses again only the end of a big item whose end changed (a sale: one more attendee, fewer seats left)', () => {
    const attendees = Array.from({ length: 1500 }, newId)
    const bigId = newId()
    const items = Array.from({ length: 60 }, (_, i) => item(i))
    items[30] = event(bigId, attendees.slice(0, 1200), 500)
    expect(items[30]?.json.length).toBeGreaterThan(30_000)
    gzipJsonArray(items)

    // one sale after another: each compresses a slice or two of the big event, not all of it
    for (let sold = 1; sold <= 5; sold++) {
      items[30] = event(bigId, attendees.slice(0, 1200 + sold), 500 - sold)
      const before = compressedBytes.total
      const gzipped = gzipJsonArray(items)
      expect(compressedBytes.total - before).toBeLessThan(2 * 8 * 1024 + 100)
      expect(gunzipSync(gzipped).toString('utf8')).toBe(arrayOf(items))
    }
    // a cancel in the middle, then the event before it changing (its dictionary): still exact
    items[30] = event(bigId, [...attendees.slice(0, 400), ...attendees.slice(401, 1205)], 496)
    expect(gunzipSync(gzipJsonArray(items)).toString('utf8')).toBe(arrayOf(items))
    // the event before changing: its group is compressed again, and of the big event only its
    // first slice (the only one whose dictionary is the text before the event)
    items[29] = item(29, ' changed')
    const changed = groupsOf(items).find((group) => group.includes(items[29] as GzipItem)) ?? []
    const changedBytes = changed.reduce((n, it) => n + Buffer.byteLength(it.json) + 1, 0)
    const before = compressedBytes.total
    expect(gunzipSync(gzipJsonArray(items)).toString('utf8')).toBe(arrayOf(items))
    expect(compressedBytes.total - before).toBeGreaterThan(changedBytes)
    expect(compressedBytes.total - before).toBeLessThan(changedBytes + 8 * 1024 + 100)
    // and again, with the big event growing at the same time: still exact
    items[29] = item(29, ' changed again')
    items[30] = event(bigId, attendees.slice(0, 1300), 400)
    expect(gunzipSync(gzipJsonArray(items)).toString('utf8')).toBe(arrayOf(items))
  })

  it('compresses again only the slice an attendee left and the one after it, at the front or in the middle (a cancel)', () => {
    const attendees = Array.from({ length: 1500 }, newId)
    const bigId = newId()
    const items = Array.from({ length: 60 }, (_, i) => item(i))
    let buyers = attendees.slice(0, 1200)
    items[30] = event(bigId, buyers, 300)
    gzipJsonArray(items)
    // the oldest ticket cancelled (its owner the first attendee), then one in the middle, then one
    // near the end: each compresses the slice the attendee was in, the next one (its dictionary),
    // the event's end (the seats left) and the group after the event, never the rest of the event
    for (const gone of [0, 600, 1100]) {
      buyers = buyers.filter((b) => b !== attendees[gone])
      items[30] = event(bigId, buyers, 301)
      const before = compressedBytes.total
      expect(gunzipSync(gzipJsonArray(items)).toString('utf8')).toBe(arrayOf(items))
      expect(compressedBytes.total - before).toBeLessThan(32_000 / 3)
    }
    // and attendees added and gone at once, everywhere: still exact
    items[30] = event(bigId, [...attendees.slice(5, 300), ...attendees.slice(310, 1500)], 12)
    expect(gunzipSync(gzipJsonArray(items)).toString('utf8')).toBe(arrayOf(items))
  })

  it("puts the whole text's CRC-32 together from its parts' (crc32Combine), as zlib computes it over the whole", () => {
    for (const [a, b] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [5, 1],
      [1000, 70_000],
      [65_536, 131_071],
      [3, 1_000_003],
    ] as const) {
      const first = randomBytes(a)
      const second = randomBytes(b)
      expect(crc32Combine(crc32(first), crc32(second), b)).toBe(crc32(Buffer.concat([first, second])))
    }
  })
})
