// perLimit (server/db/sql.ts): a statement's LIMIT written into its text, one statement per limit,
// because SQLite prepares a statement whose LIMIT is a bound parameter again at every run.
import Database from 'better-sqlite3'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { perLimit, sqliteSql, statement } from '../../server/db/sql.ts'

const firstOf = perLimit((limit) =>
  statement<{ above: number }, { n: number }>(
    (p) => sql`SELECT n FROM numbers WHERE n > ${p.above} ORDER BY n LIMIT ${limit}`,
  ),
)

describe('perLimit', () => {
  it('writes the limit into the text, not as a parameter, on both dialects', () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const { text, params } = firstOf(4).compile(dialect)
      expect(text).toMatch(/LIMIT 4$/)
      expect(params).toHaveLength(1)
    }
  })

  it('keeps one statement per limit, and each reads as many rows as its limit', () => {
    expect(firstOf(4)).toBe(firstOf(4))
    expect(firstOf(3)).not.toBe(firstOf(4))
    const db = new Database(':memory:')
    db.exec('CREATE TABLE numbers (n integer PRIMARY KEY)')
    db.prepare('INSERT INTO numbers (n) SELECT value FROM json_each(?)').run(
      JSON.stringify([1, 2, 3, 4, 5, 6, 7]),
    )
    const run = sqliteSql(db)
    expect(run.all(firstOf(3), { above: 2 })).toEqual([{ n: 3 }, { n: 4 }, { n: 5 }])
    expect(run.all(firstOf(0), { above: 2 })).toEqual([])
  })

  it('refuses a limit that is not a whole number', () => {
    for (const limit of [2.5, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => firstOf(limit)).toThrow(/whole number/)
  })
})
