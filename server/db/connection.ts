// One SQLite connection per process, in WAL mode; migrations are applied at open.
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import { SQLITE_CACHE_MB } from '../config.ts'

/** drizzle over the connection, with the better-sqlite3 handle underneath ($client) for raw statements */
export type Db = BetterSQLite3Database & { $client: Database.Database }
export type Sqlite = Database.Database

export const migrationsFolder = resolve(import.meta.dirname, '../../migrations')

export type Connection = { sqlite: Sqlite; db: Db; close(): void }

/**
 * synchronous FULL makes every commit durable across power loss; NORMAL (in WAL mode) survives
 * a process crash but may lose the last commits on power loss. See docs/operations.md, "Durability".
 */
export function openDatabase(
  file: string,
  synchronous: 'FULL' | 'NORMAL' = 'FULL',
  cacheMb = SQLITE_CACHE_MB,
): Connection {
  mkdirSync(dirname(file), { recursive: true })
  const sqlite = new Database(file)
  sqlite.pragma('busy_timeout = 5000')
  inWalMode(sqlite)
  sqlite.pragma(`synchronous = ${synchronous}`)
  sqlite.pragma('foreign_keys = ON')
  // SQLite's own default is 2 MB; see SQLITE_CACHE_MB.
  sqlite.pragma(`cache_size = ${-Math.round(cacheMb * 1024)}`)
  const db = drizzle(sqlite)
  applyMigrations(db)
  requireTriggers(sqlite)
  return { sqlite, db, close: () => sqlite.close() }
}

/**
 * The triggers the read models rely on (written by hand in migrations, which drizzle-kit does not
 * know of: a table it makes again would lose them): without seats_row_record, the rows' records a
 * hold decides against would not see seats taken, so the app refuses to start.
 */
function requireTriggers(sqlite: Sqlite) {
  const found = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'seats_row_record'")
    .get()
  if (!found)
    throw new Error(
      'the database has no trigger seats_row_record (migration 0035): see server/seating/project.ts',
    )
}

/**
 * Puts a database file in WAL mode. Switching a new file's journal needs it alone, and SQLite
 * answers SQLITE_BUSY at once (the busy timeout does not wait for it) while another process opening
 * the same file holds it: processes starting together (a cluster's apps and workers) try again.
 */
export function inWalMode(sqlite: Sqlite, attempts = 50) {
  for (let attempt = 1; ; attempt++) {
    try {
      sqlite.pragma('journal_mode = WAL')
      return
    } catch (error) {
      if (attempt >= attempts || !/database is locked|SQLITE_BUSY/i.test(String(error))) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20 * Math.min(attempt, 10))
    }
  }
}

/**
 * drizzle reads the last applied migration before it takes the write lock, so two processes
 * starting together (server and workers) can both try the same migration; the loser finds the
 * tables made and, asked again, sees the migration recorded.
 */
function applyMigrations(db: Db, attempts = 5) {
  for (let attempt = 1; ; attempt++) {
    try {
      migrate(db, { migrationsFolder })
      return
    } catch (error) {
      if (attempt >= attempts || !/already exists|database is locked/i.test(String(error))) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50 * attempt)
    }
  }
}
