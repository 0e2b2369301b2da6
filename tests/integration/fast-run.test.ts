// The compiled placeholder fill gives the statement exactly what drizzle's own fill would: same
// values in the same order, column encoders applied, the same error for a missing value. Checked
// on a real SQLite file through drizzle queries of every kind the projections use.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { eq, fillPlaceholders, sql } from 'drizzle-orm'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/connection.ts'
import { compileFill } from '../../server/db/fast-run.ts'

const dir = mkdtempSync(join(tmpdir(), 'fast-run-'))
const connection = openDatabase(join(dir, 'db.sqlite'))
afterAll(() => {
  connection.close()
  rmSync(dir, { recursive: true, force: true })
})

const things = sqliteTable('things', {
  id: text('id').primaryKey(),
  count: integer('count').notNull(),
  meta: text('meta', { mode: 'json' }).$type<{ tags: string[] }>(),
  flag: integer('flag', { mode: 'boolean' }).notNull(),
  status: text('status').notNull(),
})
connection.sqlite.exec(
  'CREATE TABLE things (id TEXT PRIMARY KEY, count INTEGER NOT NULL, meta TEXT, flag INTEGER NOT NULL, status TEXT NOT NULL)',
)
const p = sql.placeholder
const { db } = connection

const queries = {
  insert: db
    .insert(things)
    .values({ id: p('id'), count: p('count'), meta: p('meta'), flag: p('flag'), status: 'new' })
    .onConflictDoUpdate({ target: things.id, set: { count: sql`${things.count} + ${p('count')}` } })
    .prepare(),
  update: db
    .update(things)
    .set({ status: sql`${p('status')}`, flag: true })
    .where(eq(things.id, p('id')))
    .prepare(),
}
const values = { id: 'a', count: 2, meta: { tags: ['x', 'ü'] }, flag: false, status: 'done' }

describe('compiled placeholder fill', () => {
  it.each(Object.entries(queries))('fills %s exactly as drizzle does', (_, query) => {
    const params = (query as unknown as { query: { params: unknown[] } }).query.params
    expect(compileFill(params)(values)).toEqual(fillPlaceholders(params, values))
  })

  it('runs through the patched run(): rows as drizzle would write them', () => {
    queries.insert.run(values)
    queries.insert.run({ ...values, count: 3 })
    queries.update.run({ id: 'a', status: 'done' })
    expect(db.select().from(things).all()).toEqual([
      { id: 'a', count: 5, meta: { tags: ['x', 'ü'] }, flag: true, status: 'done' },
    ])
  })

  it('refuses a missing value with drizzle’s message', () => {
    expect(() => queries.update.run({ id: 'a' })).toThrow('No value for placeholder "status" was provided')
  })
})

describe('the drizzle it is written against', () => {
  // fast-run.ts replaces a method of drizzle's internals (PreparedQuery.prototype.run) and reads
  // its fields (stmt, query.params): an upgrade must be a decision, made with this test run again.
  const read = (path: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, '../..', path), 'utf8'))

  it('is pinned to one exact version, the one installed', () => {
    const wanted = read('package.json').dependencies['drizzle-orm']
    expect(wanted).toMatch(/^\d+\.\d+\.\d+$/)
    expect(read('node_modules/drizzle-orm/package.json').version).toBe(wanted)
  })

  it('still has the internals the patch uses', () => {
    const query = queries.update as unknown as { stmt: { run: unknown }; query: { params: unknown[] } }
    expect(typeof query.stmt.run).toBe('function')
    expect(Array.isArray(query.query.params)).toBe(true)
  })
})
