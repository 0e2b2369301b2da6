// The read models declared once (db/read-model.ts), as SQLite tables: drizzle-kit generates
// migrations/ from these beside server/*/tables.ts (drizzle.config.ts).
import { events, eventTicketTypes } from '../catalog/tables.ts'
import { sessions } from '../schedule/tables.ts'

export const sessionsTable = sessions.sqlite
export const eventsTable = events.sqlite
export const eventTicketTypesTable = eventTicketTypes.sqlite
