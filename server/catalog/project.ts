import { and, eq, notInArray, sql } from 'drizzle-orm'
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
    /** an edit's new words in the index: its row taken out and put back (FTS5 has no UPDATE of a
     * row found by an unindexed column that would be cheaper) */
    const unindexEvent = db
      .delete(eventsSearch)
      .where(eq(eventsSearch.eventId, p('eventId')))
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
      EventEdited(fact) {
        const { eventId, details, ticketTypes } = fact.data
        db.update(events)
          .set({ ...details, version: fact.version, updatedAt: fact.at })
          .where(eq(events.id, eventId))
          .run()
        if (['title', 'description', 'location', 'category'].some((key) => key in details)) {
          const row = db.select().from(events).where(eq(events.id, eventId)).get()
          if (row) {
            unindexEvent.run({ eventId })
            indexEvent.run({
              eventId,
              title: row.title,
              description: row.description,
              location: row.location,
              category: row.category,
            })
          }
        }
        if (!ticketTypes) return
        const ids = ticketTypes.map((t) => t.ticketTypeId)
        db.delete(eventTicketTypes)
          .where(and(eq(eventTicketTypes.eventId, eventId), notInArray(eventTicketTypes.id, ids)))
          .run()
        ticketTypes.forEach((t, rank) => {
          const row = { rank, type: t.type, pricePaise: t.pricePaise, quantity: t.quantity }
          db.insert(eventTicketTypes)
            .values({ id: t.ticketTypeId, eventId, ...row })
            .onConflictDoUpdate({ target: eventTicketTypes.id, set: row })
            .run()
        })
      },
      EventCancelled(fact) {
        db.update(events)
          .set({
            cancelledAt: fact.at,
            cancelReason: fact.data.reason,
            version: fact.version,
            updatedAt: fact.at,
          })
          .where(eq(events.id, fact.data.eventId))
          .run()
      },
      DoorStaffAdded: followVersion,
      DoorStaffInvited: followVersion,
      DoorStaffAccepted: followVersion,
      DoorStaffRemoved: followVersion,
      PromoCodeCreated: followVersion,
      PromoCodeDisabled: followVersion,
    }
  },
})
