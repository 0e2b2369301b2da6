// For the tests that hold one store against the other (issue 15): every fact of a SQLite ledger,
// and a table's rows from each store in one comparable form, so "the read models are equal, row for
// row" is one expect.
import type pg from 'pg'
import type { Sqlite } from '../../server/db/connection.ts'
import type { Ledger, StoredFact } from '../../server/ledger/ledger.ts'

/** Every fact of a ledger, in position order. */
export function allFacts(ledger: Ledger): StoredFact[] {
  const facts: StoredFact[] = []
  for (let after = 0; ; ) {
    const page = ledger.readFrom(after, 5000)
    if (page.length === 0) return facts
    facts.push(...page)
    after = (page.at(-1) as StoredFact).position
  }
}

type Row = Record<string, unknown>

/** A value as both stores can be compared on: booleans as 0/1 (SQLite's), bigints as numbers. */
const comparable = (value: unknown): unknown => {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'bigint') return Number(value)
  return value
}

/** Rows of either store, comparable and in one order. */
export const normalised = (rows: Row[]): Row[] =>
  rows
    .map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, comparable(v)])))
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))

/** A table's rows in SQLite, comparable and in one order. */
export const sqliteRows = (sqlite: Sqlite, table: string): Row[] =>
  normalised(sqlite.prepare(`SELECT * FROM "${table}"`).all() as Row[])

/** A table's columns in SQLite, those the database computes included (as `SELECT *` reads them;
 * table_info leaves them out) */
export const sqliteColumns = (sqlite: Sqlite, table: string): string[] =>
  (sqlite.prepare(`PRAGMA table_xinfo("${table}")`).all() as Array<{ name: string; hidden: number }>)
    .filter((c) => c.hidden !== 1)
    .map((c) => c.name)

/** A table's rows in PostgreSQL (these columns only, when given), comparable and in one order. */
export const pgRows = async (pool: pg.Pool, table: string, columns?: string[]): Promise<Row[]> => {
  const list = columns ? columns.map((c) => `"${c}"`).join(', ') : '*'
  return normalised((await pool.query(`SELECT ${list} FROM "${table}"`)).rows as Row[])
}
