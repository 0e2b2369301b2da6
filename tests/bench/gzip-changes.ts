// The gzipped listing during a sale, without a server (server/http/gzip-groups.ts): what each new
// ledger head costs to compress as the events grow with their attendees. The soak's pattern: 50
// events, 60% of the changes a ticket sold (an attendee added at the end of its event's list), 10% a
// hold (the seats left), 30% the oldest ticket cancelled (its attendee gone from the front of its
// event's list); the listing asked for after every third change. Prints, for each sixth of the run,
// the text compressed per listing and the time it took, and the listing's size at the end beside the
// whole text gzipped at once. `node --import tsx tests/bench/gzip-changes.ts [changes=27000]`
import { gzipSync } from 'node:zlib'
import { compressedBytes, type GzipItem, gzipJsonArray } from '../../server/http/gzip-groups.ts'

const changes = Number(process.argv[2] ?? 27_000)
let state = 12_345
/** the same run every time: mulberry32, whose every bit is as random as an id's should be */
const random = () => {
  state = (state + 0x6d2b79f5) | 0
  let t = Math.imul(state ^ (state >>> 15), 1 | state)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
}
const newId = () => `6930${Array.from({ length: 20 }, () => Math.floor(random() * 16).toString(16)).join('')}`

type Event = { id: string; title: string; buyers: string[]; left: number; version: number }
const events: Event[] = Array.from({ length: 50 }, (_, i) => ({
  id: newId(),
  title: `Event ${i}`,
  buyers: [],
  left: 1_000_000,
  version: 1,
}))
/** an event object as the listing has it (API.md), its attendees before its ticket types */
const itemOf = (e: Event): GzipItem => ({
  id: e.id,
  json: JSON.stringify({
    _id: e.id,
    title: e.title,
    description: 'A night of music and more. '.repeat(20),
    date: '2026-12-01',
    time: '19:00',
    location: 'Mumbai',
    category: 'Music',
    approvalStatus: 'Approved',
    organizer: 'organizer',
    images: [{ url: 'http://localhost:5000/uploads/poster.png' }],
    videos: [],
    candidates: e.buyers,
    ticketTypes: [
      {
        _id: `t${e.id}`,
        type: 'General Admission',
        price: 500,
        quantity: e.left,
        available: e.left,
        capacity: 1e6,
      },
    ],
    createdAt: '2026-11-01T00:00:00.000Z',
    salesEnd: null,
    reviewReason: null,
    cancelledAt: null,
    cancelReason: null,
    version: e.version,
  }),
})

const items = events.map(itemOf)
const bought: Array<{ event: Event; buyer: string }> = []
const parts = 6
const sixths = Array.from({ length: parts }, () => ({ bytes: 0, ms: 0, listings: 0 }))
gzipJsonArray(items)
for (let change = 0; change < changes; change++) {
  const r = random()
  let event = events[Math.floor(random() * events.length)] as Event
  if (r < 0.6 || bought.length === 0) {
    const buyer = newId()
    event.buyers.push(buyer)
    bought.push({ event, buyer })
    event.left--
  } else if (r < 0.7) {
    event.left--
  } else {
    const oldest = bought.shift() as { event: Event; buyer: string }
    event = oldest.event
    event.buyers.splice(event.buyers.indexOf(oldest.buyer), 1)
    event.left++
  }
  event.version++
  items[events.indexOf(event)] = itemOf(event)
  if (change % 3 !== 2) continue
  const bytes = compressedBytes.total
  const t0 = performance.now()
  gzipJsonArray(items)
  const sixth = sixths[Math.floor((change * parts) / changes)] as (typeof sixths)[number]
  sixth.ms += performance.now() - t0
  sixth.bytes += compressedBytes.total - bytes
  sixth.listings++
}
const sizes = items.map((i) => Buffer.byteLength(i.json))
console.log(`events ${Math.min(...sizes)}–${Math.max(...sizes)} bytes at the end`)
for (const [i, s] of sixths.entries())
  console.log(
    `sixth ${i + 1}: ${Math.round(s.bytes / s.listings)} bytes compressed per listing, ${(s.ms / s.listings).toFixed(3)} ms`,
  )
const text = `[${items.map((i) => i.json).join(',')}]`
console.log(
  `listing gzipped ${gzipJsonArray(items).length} bytes, whole ${gzipSync(text).length}, text ${text.length}`,
)
