import { eq } from 'drizzle-orm'
import { projection } from '../ledger/ledger.ts'
import type { CatalogFact } from './facts.ts'
import { events, eventTicketTypes } from './tables.ts'

export const catalogProjection = projection<CatalogFact>({
  name: 'catalog',
  tables: [events, eventTicketTypes],
  handlers: {
    EventSubmitted(fact, db) {
      const { eventId, organizerId, ticketTypes, ...rest } = fact.data
      db.insert(events)
        .values({
          id: eventId,
          organizerId,
          ...rest,
          approvalStatus: 'Pending',
          version: fact.version,
          createdAt: fact.at,
          updatedAt: fact.at,
        })
        .run()
      if (ticketTypes.length > 0) {
        db.insert(eventTicketTypes)
          .values(
            ticketTypes.map((t, rank) => ({
              id: t.ticketTypeId,
              eventId,
              rank,
              type: t.type,
              price: t.price,
              quantity: t.quantity,
            })),
          )
          .run()
      }
    },
    EventApproved(fact, db) {
      db.update(events)
        .set({ approvalStatus: 'Approved', version: fact.version, updatedAt: fact.at })
        .where(eq(events.id, fact.data.eventId))
        .run()
    },
    EventRejected(fact, db) {
      db.update(events)
        .set({ approvalStatus: 'Rejected', version: fact.version, updatedAt: fact.at })
        .where(eq(events.id, fact.data.eventId))
        .run()
    },
  },
})
