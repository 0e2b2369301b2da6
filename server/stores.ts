// The store one setting chooses (issue 15): DATABASE_URL=postgres://… puts the ledger, every read
// model, the consumers' checkpoints and the mail record in PostgreSQL, for any number of processes;
// unset, they live in one SQLite file under DATA_DIR. Either way every area sees the same port:
// the ledger (db/store.ts's LedgerPort), async queries, and the reads a decision makes inside its
// transaction. Knows every area, as projections.ts does; areas never import it.

import { pgAccountQueries } from './accounts/pg-queries.ts'
import type { AccountQueries } from './accounts/queries.ts'
import { accountQueries } from './accounts/queries.ts'
import { type DashboardQueries, dashboardQueries } from './analytics/dashboards.ts'
import { pgDashboardQueries } from './analytics/pg-dashboards.ts'
import { pgAnalyticsQueries } from './analytics/pg-queries.ts'
import { type AnalyticsQueries, analyticsQueries } from './analytics/queries.ts'
import { pgBookingQueries, poolReader } from './booking/pg-queries.ts'
import { type BookingQueries, bookingQueries } from './booking/queries.ts'
import { pgCatalogQueries } from './catalog/pg-queries.ts'
import { type CatalogQueries, catalogQueries } from './catalog/queries.ts'
import { pgCheckinQueries } from './checkin/pg-queries.ts'
import { type CheckinQueries, checkinQueries } from './checkin/queries.ts'
import type { Config } from './config.ts'
import { type Connection, openDatabase } from './db/connection.ts'
import { openPostgres, type PgConnection } from './db/pg-connection.ts'
import { type AsyncQueries, type LedgerPort, promised, type StepQueries } from './db/store.ts'
import type { Ledger } from './ledger/ledger.ts'
import type { PgLedger } from './ledger/pg-ledger.ts'
import { pgLedgerPort } from './ledger/pg-ledger.ts'
import { sqliteLedgerPort } from './ledger/sqlite-port.ts'
import { pgSentMailRecord } from './mail/pg-sent.ts'
import { type SentMailRecord, sentMailRecord } from './mail/sent.ts'
import { pgAppLedger } from './pg-projections.ts'
import { appLedger } from './projections.ts'
import { pgScheduleQueries } from './schedule/pg-queries.ts'
import { type ScheduleQueries, scheduleQueries } from './schedule/queries.ts'
import { pgSupportQueries } from './support/pg-queries.ts'
import { type SupportQueries, supportQueries } from './support/queries.ts'
import { pgWaitlistQueries } from './waitlist/pg-queries.ts'
import { type WaitlistQueries, waitlistQueries } from './waitlist/queries.ts'

/** What a decision reads inside its own transaction (exact under the write lock). */
export type DecisionReads = {
  booking: StepQueries<BookingQueries>
  accounts: { emailTaken(email: string): boolean | Promise<boolean> }
}

export type AppLedger = LedgerPort<DecisionReads>

/** Every area's reads, async on both stores. */
export type StoreQueries = {
  accounts: AccountQueries
  catalog: CatalogQueries
  booking: BookingQueries
  checkin: CheckinQueries
  analytics: AnalyticsQueries
  dashboards: DashboardQueries
  schedule: ScheduleQueries
  support: SupportQueries
  waitlist: WaitlistQueries
}

export type SentMails = AsyncQueries<SentMailRecord>

export type Store = {
  ledger: AppLedger
  queries: StoreQueries
  sentMails: SentMails
  /** the SQLite connection and ledger when SQLite is the store (rebuild, tests) */
  sqlite: { connection: Connection; ledger: Ledger } | null
  /** the PostgreSQL pool and ledger when PostgreSQL is the store */
  postgres: { connection: PgConnection; ledger: PgLedger } | null
  /** answers when the database does (readiness) */
  ping(): Promise<void>
  close(): Promise<void>
}

export function sqliteStore(connection: Connection, now?: () => Date): Store {
  const ledger = appLedger(connection, now)
  const { db } = connection
  const accounts = accountQueries(db)
  const catalog = catalogQueries(db)
  const waitlist = waitlistQueries(db)
  const booking = bookingQueries(db, { catalog, waitlist })
  return {
    ledger: sqliteLedgerPort<DecisionReads>(ledger, {
      booking,
      accounts: { emailTaken: (email) => accounts.byEmail(email) !== undefined },
    }),
    queries: {
      accounts: promised(accounts),
      catalog: promised(catalog),
      booking: promised(booking),
      checkin: promised(checkinQueries(db)),
      analytics: promised(analyticsQueries(db)),
      dashboards: promised(dashboardQueries(db)),
      schedule: promised(scheduleQueries(db)),
      support: promised(supportQueries(db)),
      waitlist: promised(waitlist),
    },
    sentMails: promised(sentMailRecord(db)),
    sqlite: { connection, ledger },
    postgres: null,
    ping: async () => {
      connection.sqlite.prepare('SELECT 1').get()
    },
    close: async () => connection.close(),
  }
}

export function postgresStore(connection: PgConnection, now?: () => Date): Store {
  const ledger = pgAppLedger(connection.pool, now)
  const reader = poolReader(connection.pool)
  return {
    ledger: pgLedgerPort<DecisionReads>(ledger, (tx) => ({
      booking: pgBookingQueries(tx),
      accounts: {
        emailTaken: async (email) =>
          (await tx.query('SELECT 1 FROM accounts WHERE email = $1', [email.toLowerCase()])).length > 0,
      },
    })),
    queries: {
      accounts: pgAccountQueries(connection.db),
      catalog: pgCatalogQueries(connection.pool),
      booking: pgBookingQueries(reader),
      checkin: pgCheckinQueries(reader),
      analytics: pgAnalyticsQueries(reader),
      dashboards: pgDashboardQueries(reader),
      schedule: pgScheduleQueries(connection.db),
      support: pgSupportQueries(connection.db),
      waitlist: pgWaitlistQueries(reader),
    },
    sentMails: pgSentMailRecord(connection.db),
    sqlite: null,
    postgres: { connection, ledger },
    ping: async () => {
      await connection.pool.query('SELECT 1')
    },
    close: () => connection.close(),
  }
}

/** The store the settings choose: PostgreSQL at DATABASE_URL, else SQLite under DATA_DIR. */
export async function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl) {
    return postgresStore(await openPostgres(config.databaseUrl, config.databasePoolSize))
  }
  return sqliteStore(openDatabase(config.databaseFile, config.sqliteSynchronous, config.sqliteCacheMb))
}
