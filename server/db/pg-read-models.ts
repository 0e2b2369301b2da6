// The read models declared once (db/read-model.ts), as PostgreSQL tables: drizzle-kit generates
// migrations-pg/ from these beside server/*/pg-*tables.ts (drizzle.pg.config.ts).
import { accounts, passwordResetLinks } from '../accounts/tables.ts'
import { attendance, eventSales, salesByHour, salesByTicketType, salesTotals } from '../analytics/tables.ts'
import { billingProfiles, bookingFees, invoiceDocuments } from '../billing/tables.ts'
import { heldByClient, inventory, orders, promoCodes } from '../booking/tables.ts'
import { events, eventTicketTypes } from '../catalog/tables.ts'
import { admissions, admissionsByMinute, doorInvitations, doubleEntries, passes } from '../checkin/tables.ts'
import { apiTokens, webhookDeliveries, webhookEndpoints } from '../integrations/tables.ts'
import { queuePlaces, queueRooms } from '../queue/tables.ts'
import { sessions } from '../schedule/tables.ts'
import { seatMaps, seatRows, seats } from '../seating/tables.ts'
import { inquiries } from '../support/tables.ts'
import { waitlistEntries } from '../waitlist/tables.ts'

export const sessionsTable = sessions.pg
export const inquiriesTable = inquiries.pg
export const accountsTable = accounts.pg
export const passwordResetLinksTable = passwordResetLinks.pg
export const waitlistEntriesTable = waitlistEntries.pg
export const eventsTable = events.pg
export const eventTicketTypesTable = eventTicketTypes.pg
export const passesTable = passes.pg
export const doubleEntriesTable = doubleEntries.pg
export const admissionsTable = admissions.pg
export const admissionsByMinuteTable = admissionsByMinute.pg
export const doorInvitationsTable = doorInvitations.pg
export const salesByTicketTypeTable = salesByTicketType.pg
export const salesByHourTable = salesByHour.pg
export const eventSalesTable = eventSales.pg
export const attendanceTable = attendance.pg
export const salesTotalsTable = salesTotals.pg
export const ordersTable = orders.pg
export const inventoryTable = inventory.pg
export const heldByClientTable = heldByClient.pg
export const promoCodesTable = promoCodes.pg
export const seatMapsTable = seatMaps.pg
export const seatsTable = seats.pg
export const seatRowsTable = seatRows.pg
export const queueRoomsTable = queueRooms.pg
export const queuePlacesTable = queuePlaces.pg
export const billingProfilesTable = billingProfiles.pg
export const bookingFeesTable = bookingFees.pg
export const invoiceDocumentsTable = invoiceDocuments.pg
export const apiTokensTable = apiTokens.pg
export const webhookEndpointsTable = webhookEndpoints.pg
export const webhookDeliveriesTable = webhookDeliveries.pg
