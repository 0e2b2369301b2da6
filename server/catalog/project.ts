// The catalogue's read models from its facts, on either store. Every event's words are indexed
// once, when submitted, in each store's own full-text index (words.ts); the search joins the events
// table and keeps the approved ones, so approval and rejection need no change to the index.
import { sql } from 'drizzle-orm'
import { type Sql, statement } from '../db/sql.ts'
import { wait } from '../db/store.ts'
import { readProjection } from '../ledger/read-projection.ts'
import type { CatalogFact, EventEdited } from './facts.ts'
import { events, eventTicketTypes, type TicketTypeRow } from './tables.ts'
import { indexWords, reindexWords, searchIndex, type Words } from './words.ts'

const insertEvent = statement<{
  id: string
  organizerId: string
  title: string
  description: string
  date: string
  time: string
  location: string
  category: string
  images: string
  videos: string
  salesEnd: string | null
  state: string | null
  pricesIncludeTax: boolean
  version: number
  at: string
}>(
  (p) => sql`INSERT INTO events (id, organizer_id, title, description, date, time, location, category,
      approval_status, images, videos, sales_end, gst_state, prices_include_tax, version, created_at, updated_at)
    VALUES (${p.id}, ${p.organizerId}, ${p.title}, ${p.description}, ${p.date}, ${p.time}, ${p.location},
      ${p.category}, 'Pending', ${p.images}, ${p.videos}, ${p.salesEnd}, ${p.state}, ${p.pricesIncludeTax},
      ${p.version}, ${p.at}, ${p.at})`,
)

/** a ticket type added, or changed in place by an edit */
const putTicketType = statement<TicketTypeRow>(
  (p) => sql`INSERT INTO event_ticket_types (id, event_id, rank, type, price_paise, quantity, tax_rate_bp)
    VALUES (${p.id}, ${p.eventId}, ${p.rank}, ${p.type}, ${p.pricePaise}, ${p.quantity}, ${p.taxRateBp})
    ON CONFLICT (id) DO UPDATE SET rank = excluded.rank, type = excluded.type,
      price_paise = excluded.price_paise, quantity = excluded.quantity, tax_rate_bp = excluded.tax_rate_bp`,
)

/** the ticket types an edit left out */
const dropTicketTypes = statement<{ eventId: string; kept: string[] }>(
  (p, d) =>
    sql`DELETE FROM event_ticket_types WHERE event_id = ${p.eventId} AND NOT (${d.inList(sql`id`, p.kept)})`,
)

const setStatus = statement<{
  status: string
  reason: string | null
  version: number
  at: string
  id: string
}>(
  (p) => sql`UPDATE events SET approval_status = ${p.status}, review_reason = ${p.reason},
    version = ${p.version}, updated_at = ${p.at} WHERE id = ${p.id}`,
)

// The door staff is the check-in area's read model (checkin/project.ts) and promo codes booking's;
// the event's row only follows its stream's version, which If-Match checks against.
const setVersion = statement<{ version: number; id: string }>(
  (p) => sql`UPDATE events SET version = ${p.version} WHERE id = ${p.id}`,
)

const setCapacity = statement<{ id: string; quantity: number }>(
  (p) => sql`UPDATE event_ticket_types SET quantity = ${p.quantity} WHERE id = ${p.id}`,
)

const cancel = statement<{ at: string; reason: string; version: number; id: string }>(
  (p) => sql`UPDATE events SET cancelled_at = ${p.at}, cancel_reason = ${p.reason}, version = ${p.version},
    updated_at = ${p.at} WHERE id = ${p.id}`,
)

const wordsOf = statement<{ id: string }, Words>(
  (p) => sql`SELECT id AS "eventId", title, description, location, category FROM events WHERE id = ${p.id}`,
)

/** the columns an edit may change, by the name its fact gives them */
const EDITABLE = {
  title: 'title',
  description: 'description',
  date: 'date',
  time: 'time',
  location: 'location',
  category: 'category',
  images: 'images',
  videos: 'videos',
  salesEnd: 'sales_end',
  state: 'gst_state',
  pricesIncludeTax: 'prices_include_tax',
} as const
type Editable = keyof typeof EDITABLE

/** an edit's UPDATE, one statement per set of columns it changes (a handful ever made) */
const edits = new Map<string, ReturnType<typeof statement<Record<string, unknown>>>>()
function editOf(keys: Editable[]) {
  const name = keys.join(',')
  let made = edits.get(name)
  if (!made) {
    made = statement<Record<string, unknown>>(
      (p) =>
        sql`UPDATE events SET ${sql.join(
          [
            sql`version = ${p.version}`,
            sql`updated_at = ${p.at}`,
            ...keys.map((key) => sql`${sql.raw(EDITABLE[key])} = ${p[key]}`),
          ],
          sql`, `,
        )} WHERE id = ${p.id}`,
    )
    edits.set(name, made)
  }
  return made
}

function* edited(fact: { version: number; at: string; data: EventEdited['data'] }, x: Sql) {
  const { eventId, details, ticketTypes } = fact.data
  const keys = (Object.keys(details) as Editable[]).filter((key) => key in EDITABLE).sort()
  const values: Record<string, unknown> = { version: fact.version, at: fact.at, id: eventId }
  for (const key of keys) {
    const value = details[key]
    values[key] = key === 'images' || key === 'videos' ? JSON.stringify(value) : (value ?? null)
  }
  yield* wait(x.run(editOf(keys), values))
  if (
    keys.some((key) => key === 'title' || key === 'description' || key === 'location' || key === 'category')
  ) {
    const words = yield* wait(x.get(wordsOf, { id: eventId }))
    if (words) yield* wait(reindexWords(x, words))
  }
  if (!ticketTypes) return
  yield* wait(x.run(dropTicketTypes, { eventId, kept: ticketTypes.map((t) => t.ticketTypeId) }))
  for (const [rank, t] of ticketTypes.entries()) {
    yield* wait(
      x.run(putTicketType, {
        id: t.ticketTypeId,
        eventId,
        rank,
        type: t.type,
        pricePaise: t.pricePaise,
        quantity: t.quantity,
        taxRateBp: basisPoints(t.taxRate),
      }),
    )
  }
}

/** a GST rate in percent as hundredths of a percent (absent: none) */
const basisPoints = (percent: number | undefined) => Math.round((percent ?? 0) * 100)

const followVersion = (fact: { version: number; data: { eventId: string } }, x: Sql) =>
  x.run(setVersion, { version: fact.version, id: fact.data.eventId })

export const catalogProjection = readProjection<CatalogFact>({
  name: 'catalog',
  tables: [events, eventTicketTypes, searchIndex],
  handlers: {
    *EventSubmitted(fact, x) {
      const d = fact.data
      yield* wait(
        x.run(insertEvent, {
          id: d.eventId,
          organizerId: d.organizerId,
          title: d.title,
          description: d.description,
          date: d.date,
          time: d.time,
          location: d.location,
          category: d.category,
          images: JSON.stringify(d.images),
          videos: JSON.stringify(d.videos),
          salesEnd: d.salesEnd ?? null,
          state: d.state ?? null,
          pricesIncludeTax: d.pricesIncludeTax ?? true,
          version: fact.version,
          at: fact.at,
        }),
      )
      yield* wait(indexWords(x, d))
      for (const [rank, t] of d.ticketTypes.entries()) {
        yield* wait(
          x.run(putTicketType, {
            id: t.ticketTypeId,
            eventId: d.eventId,
            rank,
            type: t.type,
            pricePaise: t.pricePaise,
            quantity: t.quantity,
            taxRateBp: basisPoints(t.taxRate),
          }),
        )
      }
    },
    EventApproved: (fact, x) =>
      x.run(setStatus, {
        status: 'Approved',
        reason: fact.data.reason ?? null,
        version: fact.version,
        at: fact.at,
        id: fact.data.eventId,
      }),
    EventRejected: (fact, x) =>
      x.run(setStatus, {
        status: 'Rejected',
        reason: fact.data.reason ?? null,
        version: fact.version,
        at: fact.at,
        id: fact.data.eventId,
      }),
    EventEdited: edited,
    EventCancelled: (fact, x) =>
      x.run(cancel, { at: fact.at, reason: fact.data.reason, version: fact.version, id: fact.data.eventId }),
    DoorStaffAdded: followVersion,
    DoorStaffInvited: followVersion,
    DoorStaffAccepted: followVersion,
    DoorStaffRemoved: followVersion,
    PromoCodeCreated: followVersion,
    PromoCodeDisabled: followVersion,
    // a seated ticket type's capacity is its seats for sale (issue 40); the plan is seating's
    *SeatMapPlaced(fact, x) {
      yield* wait(followVersion(fact, x))
      for (const [id, quantity] of Object.entries(fact.data.capacities))
        yield* wait(x.run(setCapacity, { id, quantity }))
    },
  },
})
