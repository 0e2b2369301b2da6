// The read models declared once (db/read-model.ts), as PostgreSQL tables: drizzle-kit generates
// migrations-pg/ from these beside server/*/pg-*tables.ts (drizzle.pg.config.ts).
import { events, eventTicketTypes } from '../catalog/tables.ts'
import { sessions } from '../schedule/tables.ts'

export const sessionsTable = sessions.pg
export const eventsTable = events.pg
export const eventTicketTypesTable = eventTicketTypes.pg
