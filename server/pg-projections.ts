// The app's read side of the ledger on PostgreSQL: every area's one projection (the same read
// models as projections.ts builds on SQLite), awaited in the append's transaction, and the same
// upcasters.
import type pg from 'pg'
import { accountsProjection } from './accounts/project.ts'
import { analyticsProjection } from './analytics/project.ts'
import { billingProjection } from './billing/project.ts'
import { bookingProjection } from './booking/project.ts'
import { promoProjection } from './booking/promo-project.ts'
import { orderSummaries } from './booking/queries.ts'
import { catalogProjection } from './catalog/project.ts'
import { checkinProjection } from './checkin/project.ts'
import { pgSql } from './db/sql.ts'
import { integrationsProjection } from './integrations/project.ts'
import { PgLedger, type PgProjection, type PgTx } from './ledger/pg-ledger.ts'
import { onPostgres } from './ledger/read-projection.ts'
import { queueProjection } from './queue/project.ts'
import { scheduleProjection } from './schedule/project.ts'
import { seatingProjection } from './seating/project.ts'
import { supportProjection } from './support/project.ts'
import { upcasters } from './upcasters.ts'
import { waitlistProjection } from './waitlist/project.ts'

/** booking's orders as the projections after it read them, in the appending transaction */
export const pgOrderSummaries = (tx: PgTx) => orderSummaries(pgSql(tx))

export const pgProjections: PgProjection[] = [
  onPostgres(accountsProjection),
  onPostgres(catalogProjection),
  onPostgres(bookingProjection),
  onPostgres(promoProjection),
  // analytics reads the order booking's projection has just written, in the same transaction
  onPostgres(analyticsProjection, (_x, tx) => pgOrderSummaries(tx)),
  // so does the door's (a ticket's passes take its ticket type's name)
  onPostgres(checkinProjection, (_x, tx) => pgOrderSummaries(tx)),
  onPostgres(scheduleProjection),
  onPostgres(supportProjection),
  onPostgres(waitlistProjection),
  onPostgres(seatingProjection),
  onPostgres(queueProjection),
  onPostgres(billingProjection),
  onPostgres(integrationsProjection),
]

/** The app's ledger over a PostgreSQL pool: every projection, every upcaster. */
export const pgAppLedger = (pool: pg.Pool, now?: () => Date) =>
  new PgLedger(pool, pgProjections, now, upcasters)
