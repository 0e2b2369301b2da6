import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          // run in one group with the integration projects, so the same number of workers
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Vitest's default on 2 cores is one file at a time (cores - 1); these files mostly wait on
          // SQLite's fsync, PostgreSQL, Redis and timers, so two at once nearly halve the suite's time.
          maxWorkers: 2,
        },
      },
      {
        // The same suite on PostgreSQL (issue 15): every app a test starts gets a database of its own
        // (tests/support/app.ts), so files still run in parallel. Left out: what is about SQLite
        // itself, and what holds both stores side by side already (it runs in 'integration').
        test: {
          name: 'integration-pg',
          include: ['tests/integration/**/*.test.ts'],
          exclude: [
            // kill -9 of a server on a SQLite file, whose file, WAL and read models it checks afterwards
            // (tests/faults/crash.ts reads the SQLite file)
            'tests/integration/crash.test.ts',
            // a SQLite ledger copied into PostgreSQL and back (npm run ledger:copy, ledger:rebuild)
            'tests/integration/ledger-copy.test.ts',
            // both ledgers held to one contract, each on a store of its own
            'tests/integration/ledger-stores.test.ts',
            // a SQLite app's read models and queries held against PostgreSQL's, row for row
            'tests/integration/pg-booking.test.ts',
            'tests/integration/pg-catalog.test.ts',
            'tests/integration/pg-checkin.test.ts',
            'tests/integration/pg-small-areas.test.ts',
            // the mail record and the local gateway on both of their stores
            'tests/integration/pg-sent-mails.test.ts',
            'tests/integration/local-gateway.test.ts',
            // two processes on one PostgreSQL database (store and media) whatever the suite's store
            'tests/integration/media-database.test.ts',
          ],
          globalSetup: ['tests/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
          env: { TEST_STORE: 'postgres' },
        },
      },
      {
        // Figures that need a quiet machine (a server process's memory under a flood): run alone,
        // after the integration tests.
        test: {
          name: 'quiet',
          include: ['tests/quiet/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two Chromiums at once are plenty on a 2-core machine.
          maxWorkers: 2,
        },
      },
    ],
  },
})
