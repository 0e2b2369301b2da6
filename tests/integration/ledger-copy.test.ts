// npm run ledger:copy (issue 15): a box office's SQLite ledger, made by real sales through the app,
// copied into an empty PostgreSQL database by the command itself, then back into a new SQLite file.
// Each copy holds the same facts (positions, versions, times, meta) and builds read models equal to
// the source's, row for row; a copy into a ledger that holds facts is refused.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { getTableName } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { openDatabase } from '../../server/db/connection.ts'
import { openPostgres } from '../../server/db/pg-connection.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'
import { pgAppLedger } from '../../server/pg-projections.ts'
import { appLedger, projections } from '../../server/projections.ts'
import { adminSession, organizerSession, type Session } from '../support/accounts.ts'
import { freshDatabase, type TestDatabase } from '../support/postgres.ts'
import { approvedEvent, buy, cancel, failToPay, hold, signUpAll, transfer } from '../support/sales.ts'
import { startServer } from '../support/server.ts'
import { allFacts, pgRows, sqliteColumns, sqliteRows } from '../support/stores.ts'

const root = resolve(import.meta.dirname, '../..')
/** every read model of the app (the tables its projections own) */
const readModels = [...new Set(projections.flatMap((p) => p.tables.map((t) => getTableName(t))))]

const copy = (from: string, to: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/ledger-copy.ts', '--from', from, '--to', to], {
    cwd: root,
    encoding: 'utf8',
  })

let sourceFile: string
let dataDir: string
let database: TestDatabase
beforeAll(async () => {
  const server = await startServer()
  const { app } = server
  dataDir = server.config.dataDir
  sourceFile = server.config.databaseFile
  const admin = await adminSession(app)
  const organizer = await organizerSession(app, 'Copyhost')
  const events: EventView[] = []
  for (const title of ['Copy Night', 'Copy Matinee'])
    events.push(await approvedEvent(app, organizer, admin, { title }))
  const buyers = await signUpAll(app, ['asha', 'bilal', 'chen', 'devi'] as const)
  const [first, second] = events as [EventView, EventView]
  const tickets: string[] = []
  for (const [i, buyer] of buyers.entries())
    tickets.push(await buy(app, buyer, i % 2 ? second : first, 'VIP', 1 + (i % 2)))
  await cancel(app, buyers[0] as Session, tickets[0] as string)
  await transfer(app, buyers[1] as Session, tickets[1] as string, buyers[2] as Session)
  await failToPay(app, buyers[3] as Session, first)
  await hold(app, buyers[2] as Session, second, 'VIP', 1)
  // closed, its data folder kept: the source of the copies (removed in afterAll)
  await server.stop()
  database = await freshDatabase()
}, 60_000)
afterAll(async () => {
  await database?.drop()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('npm run ledger:copy', () => {
  it('copies a SQLite ledger into PostgreSQL, and back into a new SQLite file: same facts, same read models', async () => {
    const sqlite = openDatabase(sourceFile)
    const source = allFacts(appLedger(sqlite))
    expect(source.length).toBeGreaterThan(20)

    const there = copy(sourceFile, database.url)
    expect(there.status, there.stderr).toBe(0)
    expect(there.stdout).toContain(`Copied ${source.length} facts`)
    const postgres = await openPostgres(database.url)
    try {
      const copied: StoredFact[] = await pgAppLedger(postgres.pool).readFrom(0, 100_000)
      expect(copied).toEqual(source)
      // (on SQLite's columns: PostgreSQL's search table has columns of its own beside them)
      for (const table of readModels)
        expect({
          table,
          rows: await pgRows(postgres.pool, table, sqliteColumns(sqlite.sqlite, table)),
        }).toEqual({
          table,
          rows: sqliteRows(sqlite.sqlite, table),
        })
    } finally {
      await postgres.close()
    }

    const backFile = join(mkdtempSync(join(tmpdir(), 'ledger-copy-back-')), 'back.sqlite')
    const back = copy(database.url, backFile)
    expect(back.status, back.stderr).toBe(0)
    const returned = openDatabase(backFile)
    try {
      expect(allFacts(appLedger(returned))).toEqual(source)
      for (const table of readModels)
        expect({ table, rows: sqliteRows(returned.sqlite, table) }).toEqual({
          table,
          rows: sqliteRows(sqlite.sqlite, table),
        })
    } finally {
      returned.close()
      sqlite.close()
      rmSync(resolve(backFile, '..'), { recursive: true, force: true })
    }
  }, 60_000)

  it('npm run ledger:rebuild on PostgreSQL (DATABASE_URL) replays the ledger into read models equal to the source', async () => {
    const sqlite = openDatabase(sourceFile)
    const postgres = await openPostgres(database.url)
    try {
      // Read models gone wrong: a count off, a row lost, a row that should not be there.
      await postgres.pool.query('UPDATE inventory SET sold = sold + 5')
      await postgres.pool.query("DELETE FROM accounts WHERE role = 'user'")
      await postgres.pool.query(
        "INSERT INTO inquiries (id, user_id, subject, inquiry, status, created_at) VALUES ('stray', 'x', 's', 'i', 'Pending', 'now')",
      )
      const rebuilt = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/rebuild.ts'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: database.url, JWT_SECRET: 'r'.repeat(40), DATA_DIR: dataDir },
      })
      expect(rebuilt.status, rebuilt.stderr).toBe(0)
      expect(rebuilt.stdout).toMatch(/Rebuilt \d+ tables .* from \d+ facts/)
      for (const table of readModels)
        expect({
          table,
          rows: await pgRows(postgres.pool, table, sqliteColumns(sqlite.sqlite, table)),
        }).toEqual({ table, rows: sqliteRows(sqlite.sqlite, table) })
    } finally {
      await postgres.close()
      sqlite.close()
    }
  }, 60_000)

  it('refuses to copy into a ledger that holds facts, and says why', () => {
    const again = copy(sourceFile, database.url)
    expect(again.status).toBe(1)
    expect(again.stderr).toMatch(
      /The target already holds facts \(up to position \d+\): a copy goes into an empty ledger only\./,
    )
  })

  it('refuses two ends of one kind, with its usage', () => {
    const same = copy(sourceFile, sourceFile)
    expect(same.status).toBe(1)
    expect(same.stderr).toContain('One end is a SQLite file and the other a postgres:// URL.')
  })
})
