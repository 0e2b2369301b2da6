// The app's read side of the ledger: every inline projection (the ledger runs them in dependency
// order) and every upcaster of an old fact shape; appLedger() opens the ledger with both.
import { accountsProjection } from './accounts/project.ts'
import { analyticsProjection } from './analytics/project.ts'
import { bookingProjection } from './booking/project.ts'
import { bookingQueries } from './booking/queries.ts'
import { catalogProjection } from './catalog/project.ts'
import type { Connection } from './db/connection.ts'
import { Ledger, type Projection } from './ledger/ledger.ts'
import { scheduleProjection } from './schedule/project.ts'
import { supportProjection } from './support/project.ts'
import { upcasters } from './upcasters.ts'

export const projections: Projection[] = [
  accountsProjection,
  catalogProjection,
  bookingProjection,
  analyticsProjection(bookingQueries),
  scheduleProjection,
  supportProjection,
]

/** The app's ledger over a connection: every projection, every upcaster. */
export const appLedger = (connection: Connection, now?: () => Date) =>
  new Ledger(connection, projections, now, upcasters)
