// The app's read side of the ledger on PostgreSQL: every area's projection as pg-project.ts writes
// it (the same read models as projections.ts builds on SQLite), and the same upcasters.
import type pg from 'pg'
import { accountsProjection } from './accounts/project.ts'
import { pgAnalyticsProjection } from './analytics/pg-project.ts'
import { pgBookingProjection } from './booking/pg-project.ts'
import { pgPromoProjection } from './booking/pg-promo-project.ts'
import { pgBookingQueries } from './booking/pg-queries.ts'
import { catalogProjection } from './catalog/project.ts'
import { pgCheckinProjection } from './checkin/pg-project.ts'
import { PgLedger, type PgProjection } from './ledger/pg-ledger.ts'
import { onPostgres } from './ledger/read-projection.ts'
import { scheduleProjection } from './schedule/project.ts'
import { supportProjection } from './support/project.ts'
import { upcasters } from './upcasters.ts'
import { waitlistProjection } from './waitlist/project.ts'

export const pgProjections: PgProjection[] = [
  onPostgres(accountsProjection),
  onPostgres(catalogProjection),
  pgBookingProjection,
  pgPromoProjection,
  // analytics reads the order booking's projection has just written, in the same transaction
  pgAnalyticsProjection((tx) => pgBookingQueries(tx)),
  // so does the door's (a ticket's passes take its ticket type's name)
  pgCheckinProjection((tx) => pgBookingQueries(tx)),
  onPostgres(scheduleProjection),
  onPostgres(supportProjection),
  onPostgres(waitlistProjection),
]

/** The app's ledger over a PostgreSQL pool: every projection, every upcaster. */
export const pgAppLedger = (pool: pg.Pool, now?: () => Date) =>
  new PgLedger(pool, pgProjections, now, upcasters)
