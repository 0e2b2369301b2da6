// The app's read side of the ledger: every inline projection (the ledger runs them in dependency
// order) and every upcaster of an old fact shape; appLedger() opens the ledger with both.
import { getTableName } from 'drizzle-orm'
import { accountsProjection } from './accounts/project.ts'
import { analyticsProjection } from './analytics/project.ts'
import { billingProjection } from './billing/project.ts'
import { bookingProjection, heldOrders } from './booking/project.ts'
import { promoProjection } from './booking/promo-project.ts'
import { orderSummaries } from './booking/queries.ts'
import { catalogProjection } from './catalog/project.ts'
import { checkinProjection } from './checkin/project.ts'
import type { Connection } from './db/connection.ts'
import { integrationsProjection } from './integrations/project.ts'
import { Ledger, type Projection } from './ledger/ledger.ts'
import { onSqlite } from './ledger/read-projection.ts'
import { queueProjection } from './queue/project.ts'
import { scheduleProjection } from './schedule/project.ts'
import { seatingProjection } from './seating/project.ts'
import { supportProjection } from './support/project.ts'
import { upcasters } from './upcasters.ts'
import { waitlistProjection } from './waitlist/project.ts'

export const projections: Projection[] = [
  onSqlite(accountsProjection),
  onSqlite(catalogProjection),
  onSqlite(bookingProjection),
  // during a rebuild's replay the promo codes read the orders booking holds in memory
  onSqlite(promoProjection, (_x, _db, replaying) => ({ heldOrder: heldOrders(replaying) })),
  // analytics and the door read the order booking's projection has just written: its summary
  onSqlite(analyticsProjection, (x, _db, replaying) => orderSummaries(x, replaying)),
  onSqlite(checkinProjection, (x, _db, replaying) => orderSummaries(x, replaying)),
  onSqlite(scheduleProjection),
  onSqlite(supportProjection),
  onSqlite(waitlistProjection),
  onSqlite(seatingProjection),
  onSqlite(queueProjection),
  onSqlite(billingProjection),
  onSqlite(integrationsProjection),
]

/** the names of every read-model table, the same on both stores (ledger:rebuild empties them) */
export const readModelTables = () => [
  ...new Set(projections.flatMap((p) => p.tables.map((t) => getTableName(t)))),
]

/** The app's ledger over a connection: every projection, every upcaster. */
export const appLedger = (connection: Connection, now?: () => Date) =>
  new Ledger(connection, projections, now, upcasters)
