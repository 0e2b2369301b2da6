// The store one setting chooses (issue 15): DATABASE_URL=postgres://… puts the ledger, every read
// model, the consumers' checkpoints and the mail record in PostgreSQL, for any number of processes;
// unset, they live in one SQLite file under DATA_DIR. Either way every area sees the same port:
// the ledger (db/store.ts's LedgerPort), async queries, and the reads a decision makes inside its
// transaction. Knows every area, as projections.ts does; areas never import it.

import { type AccountQueries, accountQueries } from './accounts/queries.ts'
import { type DashboardQueries, dashboardQueries } from './analytics/dashboards.ts'
import { type AnalyticsQueries, analyticsQueries } from './analytics/queries.ts'
import { type BillingQueries, billingQueries } from './billing/queries.ts'
import { type BookingQueries, bookingQueries } from './booking/queries.ts'
import { type CatalogQueries, catalogQueries } from './catalog/queries.ts'
import { type CheckinQueries, checkinQueries } from './checkin/queries.ts'
import type { Config } from './config.ts'
import { type Connection, openDatabase } from './db/connection.ts'
import { openPostgres, type PgConnection } from './db/pg-connection.ts'
import { after, pgSql, poolQueryable, type Sql, sqliteSql } from './db/sql.ts'
import { type AsyncQueries, type LedgerPort, promised, type StepQueries } from './db/store.ts'
import {
  type IntegrationQueries,
  integrationQueries,
  type WebhookQueries,
  webhookQueries,
} from './integrations/queries.ts'
import type { Ledger } from './ledger/ledger.ts'
import type { PgLedger } from './ledger/pg-ledger.ts'
import { pgLedgerPort } from './ledger/pg-ledger.ts'
import { sqliteLedgerPort } from './ledger/sqlite-port.ts'
import { pgSentMailRecord } from './mail/pg-sent.ts'
import { type SentMailRecord, sentMailRecord } from './mail/sent.ts'
import { pgAppLedger } from './pg-projections.ts'
import { appLedger } from './projections.ts'
import { type QueueQueries, queueQueries } from './queue/queries.ts'
import { type ScheduleQueries, scheduleQueries } from './schedule/queries.ts'
import { Places, type SeatingQueries, seatingQueries } from './seating/queries.ts'
import { type SupportQueries, supportQueries } from './support/queries.ts'
import { type WaitlistQueries, waitlistQueries } from './waitlist/queries.ts'

/** What a decision reads inside its own transaction (exact under the write lock). */
export type DecisionReads = {
  booking: StepQueries<BookingQueries>
  accounts: { emailTaken(email: string): boolean | Promise<boolean> }
  seating: StepQueries<SeatingQueries>
  queue: StepQueries<QueueQueries>
  /** the invoice series' last numbers (issue 42), read under their supplier's lock */
  billing: StepQueries<BillingQueries>
  /** webhook deliveries (issue 43), read under their endpoint's lock */
  webhooks: StepQueries<WebhookQueries>
}

export type AppLedger = LedgerPort<DecisionReads>

/** whether an account has the e-mail (any case), on the executor a decision reads through */
const emailTaken = (x: Sql) => {
  const accounts = accountQueries(x)
  return (email: string) => after(accounts.byEmail(email), (account) => account !== undefined)
}

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
  seating: SeatingQueries
  queue: QueueQueries
  billing: BillingQueries
  integrations: IntegrationQueries
  webhooks: WebhookQueries
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
  const sqlite = sqliteSql(connection.sqlite)
  const catalog = catalogQueries(sqlite)
  const waitlist = waitlistQueries(sqlite)
  // a decision's reads answer at once on SQLite's connection
  const booking = bookingQueries(sqlite, { catalog, waitlist })
  return {
    ledger: sqliteLedgerPort<DecisionReads>(ledger, {
      booking,
      accounts: { emailTaken: emailTaken(sqlite) },
      seating: seatingQueries(sqlite),
      queue: queueQueries(sqlite),
      billing: billingQueries(sqlite),
      webhooks: webhookQueries(sqlite),
    }),
    queries: {
      accounts: promised(accountQueries(sqlite)),
      catalog: promised(catalog),
      booking: promised(booking),
      checkin: promised(checkinQueries(sqlite)),
      analytics: promised(analyticsQueries(sqlite)),
      dashboards: promised(dashboardQueries(sqlite)),
      schedule: promised(scheduleQueries(sqlite)),
      support: promised(supportQueries(sqlite)),
      waitlist: promised(waitlist),
      seating: promised(seatingQueries(sqlite)),
      queue: promised(queueQueries(sqlite)),
      billing: promised(billingQueries(sqlite)),
      integrations: promised(integrationQueries(sqlite)),
      webhooks: promised(webhookQueries(sqlite)),
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
  const pool = pgSql(poolQueryable(connection.pool))
  // the seats' places each plan version put, kept across the decisions' transactions
  const places = new Places()
  return {
    ledger: pgLedgerPort<DecisionReads>(ledger, (tx) => ({
      booking: bookingQueries(pgSql(tx)),
      accounts: { emailTaken: emailTaken(pgSql(tx)) },
      seating: seatingQueries(pgSql(tx), places),
      queue: queueQueries(pgSql(tx)),
      billing: billingQueries(pgSql(tx)),
      webhooks: webhookQueries(pgSql(tx)),
    })),
    queries: {
      accounts: promised(accountQueries(pool)),
      catalog: promised(catalogQueries(pool)),
      booking: promised(bookingQueries(pool)),
      checkin: promised(checkinQueries(pool)),
      analytics: promised(analyticsQueries(pool)),
      dashboards: promised(dashboardQueries(pool)),
      schedule: promised(scheduleQueries(pool)),
      support: promised(supportQueries(pool)),
      waitlist: promised(waitlistQueries(pool)),
      seating: promised(seatingQueries(pool)),
      queue: promised(queueQueries(pool)),
      billing: promised(billingQueries(pool)),
      integrations: promised(integrationQueries(pool)),
      webhooks: promised(webhookQueries(pool)),
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
