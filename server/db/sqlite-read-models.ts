// The read models declared once (db/read-model.ts), as SQLite tables: drizzle-kit generates
// migrations/ from these beside server/*/tables.ts (drizzle.config.ts).
import { accounts, passwordResetLinks } from '../accounts/tables.ts'
import { events, eventTicketTypes } from '../catalog/tables.ts'
import { sessions } from '../schedule/tables.ts'
import { inquiries } from '../support/tables.ts'
import { waitlistEntries } from '../waitlist/tables.ts'

export const sessionsTable = sessions.sqlite
export const inquiriesTable = inquiries.sqlite
export const accountsTable = accounts.sqlite
export const passwordResetLinksTable = passwordResetLinks.sqlite
export const waitlistEntriesTable = waitlistEntries.sqlite
export const eventsTable = events.sqlite
export const eventTicketTypesTable = eventTicketTypes.sqlite
