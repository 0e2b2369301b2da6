// The read models declared once (db/read-model.ts), as SQLite tables: drizzle-kit generates
// migrations/ from these beside server/*/tables.ts (drizzle.config.ts).
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

export const sessionsTable = sessions.sqlite
export const inquiriesTable = inquiries.sqlite
export const accountsTable = accounts.sqlite
export const passwordResetLinksTable = passwordResetLinks.sqlite
export const waitlistEntriesTable = waitlistEntries.sqlite
export const eventsTable = events.sqlite
export const eventTicketTypesTable = eventTicketTypes.sqlite
export const passesTable = passes.sqlite
export const doubleEntriesTable = doubleEntries.sqlite
export const admissionsTable = admissions.sqlite
export const admissionsByMinuteTable = admissionsByMinute.sqlite
export const doorInvitationsTable = doorInvitations.sqlite
export const salesByTicketTypeTable = salesByTicketType.sqlite
export const salesByHourTable = salesByHour.sqlite
export const eventSalesTable = eventSales.sqlite
export const attendanceTable = attendance.sqlite
export const salesTotalsTable = salesTotals.sqlite
export const ordersTable = orders.sqlite
export const inventoryTable = inventory.sqlite
export const heldByClientTable = heldByClient.sqlite
export const promoCodesTable = promoCodes.sqlite
export const seatMapsTable = seatMaps.sqlite
export const seatsTable = seats.sqlite
export const seatRowsTable = seatRows.sqlite
export const queueRoomsTable = queueRooms.sqlite
export const queuePlacesTable = queuePlaces.sqlite
export const billingProfilesTable = billingProfiles.sqlite
export const bookingFeesTable = bookingFees.sqlite
export const invoiceDocumentsTable = invoiceDocuments.sqlite
export const apiTokensTable = apiTokens.sqlite
export const webhookEndpointsTable = webhookEndpoints.sqlite
export const webhookDeliveriesTable = webhookDeliveries.sqlite
