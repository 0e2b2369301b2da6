// The catalogue's projection on PostgreSQL: project.ts's rows for the same facts, written in the
// append's transaction.
import type { StoredFact } from '../ledger/ledger.ts'
import type { PgProjection, PgTx } from '../ledger/pg-ledger.ts'
import type {
  CatalogFact,
  DoorStaffAccepted,
  DoorStaffAdded,
  DoorStaffInvited,
  DoorStaffRemoved,
  EventApproved,
  EventCancelled,
  EventEdited,
  EventRejected,
  EventSubmitted,
} from './facts.ts'
import { LEXEME_CHARS, searchTokens } from './pg-search.ts'

type Handler<F extends CatalogFact> = (fact: StoredFact<F>, tx: PgTx) => Promise<void>

const setStatus =
  (status: 'Approved' | 'Rejected'): Handler<EventApproved | EventRejected> =>
  async (fact, tx) => {
    await tx.query(
      `UPDATE events SET approval_status = $1, review_reason = $2, version = $3, updated_at = $4
       WHERE id = $5`,
      [status, fact.data.reason ?? null, fact.version, fact.at, fact.data.eventId],
    )
  }

const submitted: Handler<EventSubmitted> = async (fact, tx) => {
  const d = fact.data
  await tx.query(
    `INSERT INTO events (id, organizer_id, title, description, date, time, location, category,
       approval_status, images, videos, sales_end, version, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'Pending', $9, $10, $11, $12, $13, $13)`,
    [
      d.eventId,
      d.organizerId,
      d.title,
      d.description,
      d.date,
      d.time,
      d.location,
      d.category,
      JSON.stringify(d.images),
      JSON.stringify(d.videos),
      d.salesEnd ?? null,
      fact.version,
      fact.at,
    ],
  )
  // Indexed once, when submitted: the search joins events and keeps the approved ones (as on SQLite).
  const tokens = [d.title, d.description, d.location, d.category].map(searchTokens)
  await tx.query(
    `INSERT INTO events_search (event_id, title, description, location, category,
       title_tokens, description_tokens, location_tokens, category_tokens, lexemes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, array_to_tsvector($10::text[]))`,
    [
      d.eventId,
      d.title,
      d.description,
      d.location,
      d.category,
      ...tokens,
      [...new Set(tokens.flat().map((t) => [...t].slice(0, LEXEME_CHARS).join('')))],
    ],
  )
  if (d.ticketTypes.length > 0) {
    await tx.query(
      `INSERT INTO event_ticket_types (id, event_id, rank, type, price_paise, quantity)
       SELECT id, $1, rank - 1, type, price, quantity
       FROM unnest($2::text[], $3::text[], $4::bigint[], $5::int[]) WITH ORDINALITY AS t(id, type, price, quantity, rank)`,
      [
        d.eventId,
        d.ticketTypes.map((t) => t.ticketTypeId),
        d.ticketTypes.map((t) => t.type),
        d.ticketTypes.map((t) => t.pricePaise),
        d.ticketTypes.map((t) => t.quantity),
      ],
    )
  }
}

/** the columns an edit may change, by the name its fact gives them */
const EDITABLE: Record<string, string> = {
  title: 'title',
  description: 'description',
  date: 'date',
  time: 'time',
  location: 'location',
  category: 'category',
  images: 'images',
  videos: 'videos',
  salesEnd: 'sales_end',
}

const edited: Handler<EventEdited> = async (fact, tx) => {
  const { eventId, details, ticketTypes } = fact.data
  const sets = ['version = $1', 'updated_at = $2']
  const values: unknown[] = [fact.version, fact.at]
  for (const [key, value] of Object.entries(details)) {
    const column = EDITABLE[key]
    if (!column) continue
    values.push(key === 'images' || key === 'videos' ? JSON.stringify(value) : value)
    sets.push(`${column} = $${values.length}`)
  }
  values.push(eventId)
  await tx.query(`UPDATE events SET ${sets.join(', ')} WHERE id = $${values.length}`, values)
  if (['title', 'description', 'location', 'category'].some((key) => key in details)) {
    const rows = await tx.query<{ title: string; description: string; location: string; category: string }>(
      'SELECT title, description, location, category FROM events WHERE id = $1',
      [eventId],
    )
    const row = rows[0]
    if (row) {
      const tokens = [row.title, row.description, row.location, row.category].map(searchTokens)
      await tx.query(
        `UPDATE events_search SET title = $2, description = $3, location = $4, category = $5,
           title_tokens = $6, description_tokens = $7, location_tokens = $8, category_tokens = $9,
           lexemes = array_to_tsvector($10::text[])
         WHERE event_id = $1`,
        [
          eventId,
          row.title,
          row.description,
          row.location,
          row.category,
          ...tokens,
          [...new Set(tokens.flat().map((t) => [...t].slice(0, LEXEME_CHARS).join('')))],
        ],
      )
    }
  }
  if (!ticketTypes) return
  await tx.query('DELETE FROM event_ticket_types WHERE event_id = $1 AND NOT (id = ANY($2::text[]))', [
    eventId,
    ticketTypes.map((t) => t.ticketTypeId),
  ])
  await tx.query(
    `INSERT INTO event_ticket_types (id, event_id, rank, type, price_paise, quantity)
     SELECT id, $1, rank - 1, type, price, quantity
     FROM unnest($2::text[], $3::text[], $4::bigint[], $5::int[]) WITH ORDINALITY AS t(id, type, price, quantity, rank)
     ON CONFLICT (id) DO UPDATE SET rank = excluded.rank, type = excluded.type,
       price_paise = excluded.price_paise, quantity = excluded.quantity`,
    [
      eventId,
      ticketTypes.map((t) => t.ticketTypeId),
      ticketTypes.map((t) => t.type),
      ticketTypes.map((t) => t.pricePaise),
      ticketTypes.map((t) => t.quantity),
    ],
  )
}

const cancelled: Handler<EventCancelled> = async (fact, tx) => {
  await tx.query(
    'UPDATE events SET cancelled_at = $1, cancel_reason = $2, version = $3, updated_at = $1 WHERE id = $4',
    [fact.at, fact.data.reason, fact.version, fact.data.eventId],
  )
}

/** The door staff is the check-in area's read model; the event's row only follows its stream's
 * version, which If-Match checks against. */
const followVersion: Handler<
  DoorStaffAdded | DoorStaffInvited | DoorStaffAccepted | DoorStaffRemoved
> = async (fact, tx) => {
  await tx.query('UPDATE events SET version = $1 WHERE id = $2', [fact.version, fact.data.eventId])
}

export const pgCatalogProjection: PgProjection = {
  name: 'catalog',
  handlers: {
    EventSubmitted: submitted as PgProjection['handlers'][string],
    EventApproved: setStatus('Approved') as PgProjection['handlers'][string],
    EventRejected: setStatus('Rejected') as PgProjection['handlers'][string],
    DoorStaffAdded: followVersion as PgProjection['handlers'][string],
    DoorStaffInvited: followVersion as PgProjection['handlers'][string],
    DoorStaffAccepted: followVersion as PgProjection['handlers'][string],
    DoorStaffRemoved: followVersion as PgProjection['handlers'][string],
    PromoCodeCreated: followVersion as PgProjection['handlers'][string],
    PromoCodeDisabled: followVersion as PgProjection['handlers'][string],
    EventEdited: edited as PgProjection['handlers'][string],
    EventCancelled: cancelled as PgProjection['handlers'][string],
  },
}
