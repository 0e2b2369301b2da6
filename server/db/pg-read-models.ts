// The read models declared once (db/read-model.ts), as PostgreSQL tables: drizzle-kit generates
// migrations-pg/ from these beside server/*/pg-*tables.ts (drizzle.pg.config.ts).
import { accounts, passwordResetLinks } from '../accounts/tables.ts'
import { events, eventTicketTypes } from '../catalog/tables.ts'
import { sessions } from '../schedule/tables.ts'
import { inquiries } from '../support/tables.ts'
import { waitlistEntries } from '../waitlist/tables.ts'

export const sessionsTable = sessions.pg
export const inquiriesTable = inquiries.pg
export const accountsTable = accounts.pg
export const passwordResetLinksTable = passwordResetLinks.pg
export const waitlistEntriesTable = waitlistEntries.pg
export const eventsTable = events.pg
export const eventTicketTypesTable = eventTicketTypes.pg
