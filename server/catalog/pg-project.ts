// The catalogue's projection on PostgreSQL: project.ts's rows for the same facts, written in the
// append's transaction.
import type { StoredFact } from '../ledger/ledger.ts'
import type { PgProjection, PgTx } from '../ledger/pg-ledger.ts'
import type {
  CatalogFact,
  DoorStaffAdded,
  DoorStaffRemoved,
  EventApproved,
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

/** The door staff is the check-in area's read model; the event's row only follows its stream's
 * version, which If-Match checks against. */
const followVersion: Handler<DoorStaffAdded | DoorStaffRemoved> = async (fact, tx) => {
  await tx.query('UPDATE events SET version = $1 WHERE id = $2', [fact.version, fact.data.eventId])
}

export const pgCatalogProjection: PgProjection = {
  name: 'catalog',
  handlers: {
    EventSubmitted: submitted as PgProjection['handlers'][string],
    EventApproved: setStatus('Approved') as PgProjection['handlers'][string],
    EventRejected: setStatus('Rejected') as PgProjection['handlers'][string],
    DoorStaffAdded: followVersion as PgProjection['handlers'][string],
    DoorStaffRemoved: followVersion as PgProjection['handlers'][string],
  },
}
