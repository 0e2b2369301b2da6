import { eq, sql } from 'drizzle-orm'
import { projection } from '../ledger/ledger.ts'
import type { CatalogFact } from './facts.ts'
import { eventsSearch } from './search-index.ts'
import { events, eventTicketTypes } from './tables.ts'

const p = sql.placeholder

export const catalogProjection = projection<CatalogFact>({
  name: 'catalog',
  tables: [events, eventTicketTypes, eventsSearch],
  handlers(db) {
    const insertEvent = db
      .insert(events)
      .values({
        id: p('id'),
        organizerId: p('organizerId'),
        title: p('title'),
        description: p('description'),
        date: p('date'),
        time: p('time'),
        location: p('location'),
        category: p('category'),
        approvalStatus: 'Pending',
        images: p('images'),
        videos: p('videos'),
        salesEnd: p('salesEnd'),
        version: p('version'),
        createdAt: p('at'),
        updatedAt: p('at'),
      })
      .prepare()
    const insertTicketType = db
      .insert(eventTicketTypes)
      .values({
        id: p('id'),
        eventId: p('eventId'),
        rank: p('rank'),
        type: p('type'),
        pricePaise: p('pricePaise'),
        quantity: p('quantity'),
      })
      .prepare()
    // Every event's words are indexed once, when submitted; the search joins the events table and
    // keeps the approved ones, so approval and rejection need no change to the index.
    const indexEvent = db
      .insert(eventsSearch)
      .values({
        eventId: p('eventId'),
        title: p('title'),
        description: p('description'),
        location: p('location'),
        category: p('category'),
      })
      .prepare()
    const setStatus = db
      .update(events)
      .set({
        approvalStatus: sql`${p('status')}`,
        reviewReason: sql`${p('reason')}`,
        version: sql`${p('version')}`,
        updatedAt: sql`${p('at')}`,
      })
      .where(eq(events.id, p('id')))
      .prepare()
    // The door staff is the check-in area's read model (checkin/project.ts); the event's row only
    // follows its stream's version, which If-Match checks against.
    const setVersion = db
      .update(events)
      .set({ version: sql`${p('version')}` })
      .where(eq(events.id, p('id')))
      .prepare()
    const followVersion = (fact: { version: number; data: { eventId: string } }) =>
      setVersion.run({ version: fact.version, id: fact.data.eventId })
    return {
      EventSubmitted(fact) {
        const d = fact.data
        insertEvent.run({
          id: d.eventId,
          organizerId: d.organizerId,
          title: d.title,
          description: d.description,
          date: d.date,
          time: d.time,
          location: d.location,
          category: d.category,
          images: d.images,
          videos: d.videos,
          salesEnd: d.salesEnd ?? null,
          version: fact.version,
          at: fact.at,
        })
        indexEvent.run({
          eventId: d.eventId,
          title: d.title,
          description: d.description,
          location: d.location,
          category: d.category,
        })
        d.ticketTypes.forEach((t, rank) => {
          insertTicketType.run({
            id: t.ticketTypeId,
            eventId: d.eventId,
            rank,
            type: t.type,
            pricePaise: t.pricePaise,
            quantity: t.quantity,
          })
        })
      },
      EventApproved(fact) {
        const reason = fact.data.reason ?? null
        setStatus.run({
          status: 'Approved',
          reason,
          version: fact.version,
          at: fact.at,
          id: fact.data.eventId,
        })
      },
      EventRejected(fact) {
        const reason = fact.data.reason ?? null
        setStatus.run({
          status: 'Rejected',
          reason,
          version: fact.version,
          at: fact.at,
          id: fact.data.eventId,
        })
      },
      DoorStaffAdded: followVersion,
      DoorStaffRemoved: followVersion,
    }
  },
})
