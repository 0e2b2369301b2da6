// The read side's port (db/sql.ts, db/read-model.ts): one statement rendered for each dialect with
// its named parameters in order, the values SQLite cannot bind made bindable, and a row read back
// under its TypeScript names with SQLite's booleans and JSON text decoded. Run on a real in-memory
// SQLite; PostgreSQL's side is the differential tests' (tests/integration/pg-*.test.ts).
import Database from 'better-sqlite3'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { type RowOf, readModelTable } from '../../server/db/read-model.ts'
import { inlined, sqliteSql, statement } from '../../server/db/sql.ts'

const things = readModelTable(
  'things',
  (k) => ({
    id: k.text('id').primaryKey(),
    ownerId: k.text('owner_id').notNull(),
    count: k.integer('count').notNull(),
    paise: k.bigint('paise').notNull(),
    open: k.boolean('open').notNull(),
    tags: k.json<string[]>('tags').notNull(),
    note: k.text('note'),
  }),
  (t, i) => [i.index('things_owner').on(t.ownerId)],
)
type Thing = RowOf<typeof things>

const insert = statement<Omit<Thing, 'tags'> & { tags: string }>(
  (p) => sql`INSERT INTO things (id, owner_id, count, paise, open, tags, note)
    VALUES (${p.id}, ${p.ownerId}, ${p.count}, ${p.paise}, ${p.open}, ${p.tags}, ${p.note})`,
)
const ofOwners = statement<{ owners: string[]; least: number }, Thing>(
  (p, d) => sql`SELECT ${things.columns()} FROM things
    WHERE ${d.inList(sql`owner_id`, p.owners)} AND count >= ${p.least} ORDER BY ${d.bytes(sql`id`)}`,
)

function database() {
  const db = new Database(':memory:')
  db.exec(`CREATE TABLE things (id text PRIMARY KEY, owner_id text NOT NULL, count integer NOT NULL,
    paise integer NOT NULL, open integer NOT NULL, tags text NOT NULL, note text)`)
  return db
}

describe('a statement written once', () => {
  it('renders for SQLite with ? and for PostgreSQL with $n, its parameters in the order written', () => {
    const sqlite = ofOwners.compile('sqlite')
    const pg = ofOwners.compile('postgres')
    expect(sqlite.text).toContain('IN (SELECT value FROM json_each(?))')
    expect(sqlite.text).not.toContain('COLLATE')
    expect(pg.text).toContain('= ANY($1)')
    expect(pg.text).toContain('count >= $2')
    expect(pg.text).toContain('id COLLATE "C"')
    expect(pg.name).not.toBe(insert.compile('postgres').name)
  })

  it('reads back on SQLite what it wrote: booleans, big amounts, JSON, nulls, in byte order', () => {
    const x = sqliteSql(database())
    const rows: Thing[] = [
      { id: 'b', ownerId: 'o1', count: 3, paise: 2 ** 40, open: true, tags: ['x', 'é'], note: null },
      { id: 'B', ownerId: 'o1', count: 5, paise: 0, open: false, tags: [], note: 'n' },
      { id: 'a', ownerId: 'o2', count: 1, paise: 7, open: true, tags: ['y'], note: null },
    ]
    for (const row of rows) {
      // SQLite answers at once: nothing to wait for
      expect(x.run(insert, { ...row, tags: JSON.stringify(row.tags) })).toBeUndefined()
    }
    const decode = things.decode('sqlite')
    const read = (owners: string[], least: number) =>
      (x.all(ofOwners, { owners, least }) as Thing[]).map(decode)
    // 'B' (0x42) before 'b' (0x62): SQLite's BINARY order, which PostgreSQL spells COLLATE "C"
    expect(read(['o1', 'o2'], 0)).toEqual([rows[1], rows[2], rows[0]])
    expect(read(['o1'], 4)).toEqual([rows[1]])
    expect(read([], 0)).toEqual([])
  })

  it('refuses a statement run without one of its parameters, naming it', () => {
    const x = sqliteSql(database())
    expect(() => x.all(ofOwners, { owners: ['o1'] } as never)).toThrow('"least"')
  })
})

describe('a statement with its values written in (PostgreSQL, several in one simple query)', () => {
  it('writes each $n as an untyped literal, leaving quoted text and names as they are', () => {
    expect(
      inlined(`SELECT '$1' AS "$2", $1, $2::int, $10 FROM t WHERE a = $3 AND b = ANY($4)`, [
        "it's",
        -2.5,
        null,
        ['a,b', 'c"d', 'e\\f'],
        true,
        9007199254740993n,
        Buffer.from([0, 255]),
        new Date('2026-12-02T00:00:00.000Z'),
        { n: 1 },
        'x\\y',
      ]),
    ).toBe(
      // (pg's escapeLiteral: a string with a backslash is an E'' string, each backslash doubled)
      `SELECT '$1' AS "$2", 'it''s', '-2.5'::int,  E'x\\\\y' FROM t WHERE a = NULL AND b = ANY( E'{"a,b","c\\\\"d","e\\\\\\\\f"}')`,
    )
  })

  it('refuses a value SQL cannot take, and a placeholder without a value', () => {
    expect(() => inlined('SELECT $1', [Number.NaN])).toThrow(/Not a number/)
    expect(() => inlined('SELECT $2', [1])).toThrow(/No value for \$2/)
  })
})
