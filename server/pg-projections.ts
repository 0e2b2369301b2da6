// The app's read side of the ledger on PostgreSQL: every area's projection as pg-project.ts writes
// it (the same read models as projections.ts builds on SQLite), and the same upcasters.
import type pg from 'pg'
import { pgAccountsProjection } from './accounts/pg-project.ts'
import { analyticsProjection } from './analytics/project.ts'
import { pgBookingProjection } from './booking/pg-project.ts'
import { pgPromoProjection } from './booking/pg-promo-project.ts'
import { pgBookingQueries } from './booking/pg-queries.ts'
import { pgCatalogProjection } from './catalog/pg-project.ts'
import { checkinProjection } from './checkin/project.ts'
import { PgLedger, type PgProjection, type PgTx } from './ledger/pg-ledger.ts'
import { onPostgres } from './ledger/read-projection.ts'
import { scheduleProjection } from './schedule/project.ts'
import { pgSupportProjection } from './support/pg-project.ts'
import { upcasters } from './upcasters.ts'
import { pgWaitlistProjection } from './waitlist/pg-project.ts'

/** booking's orders as the projections after it read them, in the appending transaction */
export const pgOrderSummaries = (tx: PgTx) => ({
  summary: (orderId: string) => pgBookingQueries(tx).byId(orderId),
})

export const pgProjections: PgProjection[] = [
  pgAccountsProjection,
  pgCatalogProjection,
  pgBookingProjection,
  pgPromoProjection,
  // analytics reads the order booking's projection has just written, in the same transaction
  onPostgres(analyticsProjection, (_x, tx) => pgOrderSummaries(tx)),
  // so does the door's (a ticket's passes take its ticket type's name)
  onPostgres(checkinProjection, (_x, tx) => pgOrderSummaries(tx)),
  onPostgres(scheduleProjection),
  pgSupportProjection,
  pgWaitlistProjection,
]

/** The app's ledger over a PostgreSQL pool: every projection, every upcaster. */
export const pgAppLedger = (pool: pg.Pool, now?: () => Date) =>
  new PgLedger(pool, pgProjections, now, upcasters)
