// A read model's table declared once for both stores: one function of a column kit, called with
// sqlite-core's builders and with pg-core's, gives the two drizzle tables (each dialect's migrations
// are generated from its own: db/sqlite-read-models.ts, db/pg-read-models.ts), the select list that
// reads a row under its TypeScript names, and the decoding of what each driver answers (SQLite's 0/1
// booleans and JSON text, PostgreSQL's JSON text) into the same row.
import { type BuildColumns, getTableColumns, type SQL, sql } from 'drizzle-orm'
import * as pgCore from 'drizzle-orm/pg-core'
import * as sqliteCore from 'drizzle-orm/sqlite-core'
import type { Dialect } from './sql.ts'

type Kind = 'text' | 'integer' | 'bigint' | 'boolean' | 'json' | 'jsonb' | 'real'

/** The column kinds a read model uses, named as its SQLite builders are typed. */
function sqliteKit(kinds: Map<string, Kind>) {
  const as = <B>(name: string, kind: Kind, builder: B): B => {
    kinds.set(name, kind)
    return builder
  }
  return {
    text: (name: string) => as(name, 'text', sqliteCore.text(name)),
    integer: (name: string) => as(name, 'integer', sqliteCore.integer(name)),
    /** a count or amount that may pass 2^31 (paise): integer on SQLite, bigint on PostgreSQL */
    bigint: (name: string) => as(name, 'bigint', sqliteCore.integer(name)),
    boolean: (name: string) => as(name, 'boolean', sqliteCore.integer(name, { mode: 'boolean' })),
    /** JSON kept as text on both: byte for byte what was written */
    json: <T>(name: string) => as(name, 'json', sqliteCore.text(name, { mode: 'json' }).$type<T>()),
    /** JSON as text on SQLite, jsonb on PostgreSQL (whose driver answers it parsed); written as JSON text */
    jsonb: <T>(name: string) => as(name, 'jsonb', sqliteCore.text(name, { mode: 'json' }).$type<T>()),
    real: (name: string) => as(name, 'real', sqliteCore.real(name)),
    /** an integer the store computes from the row's other columns, never written: an index's key
     * (virtual on SQLite, stored on PostgreSQL, which has no virtual ones) */
    integerOf: (name: string, of: SQL) =>
      as(name, 'integer', sqliteCore.integer(name).generatedAlwaysAs(of, { mode: 'virtual' })),
  }
}

export type ColumnKit = ReturnType<typeof sqliteKit>

const jsonText = pgCore.customType<{ data: unknown; driverData: string }>({
  dataType: () => 'text',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => JSON.parse(value),
})

const pgKit = {
  text: (name: string) => pgCore.text(name),
  integer: (name: string) => pgCore.integer(name),
  bigint: (name: string) => pgCore.bigint(name, { mode: 'number' }),
  boolean: (name: string) => pgCore.boolean(name),
  json: (name: string) => jsonText(name),
  jsonb: (name: string) => pgCore.jsonb(name),
  real: (name: string) => pgCore.doublePrecision(name),
  integerOf: (name: string, of: SQL) => pgCore.integer(name).generatedAlwaysAs(of),
}

/** The index builders, as SQLite's are typed. */
const sqliteIndexes = {
  index: sqliteCore.index,
  uniqueIndex: sqliteCore.uniqueIndex,
  primaryKey: sqliteCore.primaryKey,
}
export type IndexKit = typeof sqliteIndexes
const pgIndexes = { index: pgCore.index, uniqueIndex: pgCore.uniqueIndex, primaryKey: pgCore.primaryKey }

type Columns = Record<string, sqliteCore.SQLiteColumnBuilderBase>

/** any read model's tables, as a projection lists what it owns */
export type AnyReadModel = {
  readonly name: string
  readonly sqlite: sqliteCore.SQLiteTable
  readonly pg: pgCore.PgTable
}

export type ReadModelTable<Name extends string, C extends Columns> = {
  readonly name: Name
  /** the SQLite table (its migrations, and drizzle reads where they remain) */
  readonly sqlite: sqliteCore.SQLiteTableWithColumns<{
    name: Name
    schema: undefined
    columns: BuildColumns<Name, C, 'sqlite'>
    dialect: 'sqlite'
  }>
  /** the PostgreSQL table: the same columns and indexes in pg-core */
  readonly pg: pgCore.PgTable
  /** `"event_id" AS "eventId", …`: every column under its TypeScript name, optionally of an alias */
  columns(alias?: string): SQL
  /** one row as a driver answered it (read with columns()) → the row as the table's type says */
  decode(dialect: Dialect): (raw: Record<string, unknown>) => Row<Name, C>
}

export type Row<Name extends string, C extends Columns> = sqliteCore.SQLiteTableWithColumns<{
  name: Name
  schema: undefined
  columns: BuildColumns<Name, C, 'sqlite'>
  dialect: 'sqlite'
}>['$inferSelect']

/** The row type of a read model's table. */
export type RowOf<T> = T extends ReadModelTable<infer N, infer C> ? Row<N, C> : never

export function readModelTable<Name extends string, C extends Columns>(
  name: Name,
  columns: (k: ColumnKit) => C,
  extras?: (t: BuildColumns<Name, C, 'sqlite'>, i: IndexKit) => sqliteCore.SQLiteTableExtraConfigValue[],
): ReadModelTable<Name, C> {
  const kinds = new Map<string, Kind>()
  const sqlite = sqliteCore.sqliteTable(
    name,
    columns(sqliteKit(kinds)),
    extras ? (t) => extras(t, sqliteIndexes) : undefined,
  )
  const pg = pgCore.pgTable(
    name,
    columns(pgKit as unknown as ColumnKit) as never,
    extras ? (t: never) => extras(t, pgIndexes as unknown as IndexKit) as never : undefined,
  )
  const fields = Object.entries(getTableColumns(sqlite)).map(([key, column]) => ({
    key,
    column: column.name,
    kind: kinds.get(column.name) ?? 'text',
  }))
  const selectList = (alias?: string) =>
    sql.raw(
      fields.map(({ key, column }) => `${alias ? `"${alias}".` : ''}"${column}" AS "${key}"`).join(', '),
    )
  const plain = selectList()
  const decoders: Partial<Record<Dialect, (raw: Record<string, unknown>) => never>> = {}
  const decode = (dialect: Dialect) => {
    const done = decoders[dialect]
    if (done) return done
    // only the columns whose driver value differs from the row's need a step
    const steps = fields.filter(({ kind }) =>
      dialect === 'sqlite' ? kind === 'boolean' || kind === 'json' || kind === 'jsonb' : kind === 'json',
    )
    const made = (raw: Record<string, unknown>) => {
      for (const { key, kind } of steps) {
        const value = raw[key]
        if (value === null || value === undefined) continue
        raw[key] = kind === 'boolean' ? value === 1 || value === true : JSON.parse(value as string)
      }
      return raw as never
    }
    decoders[dialect] = made
    return made
  }
  return {
    name,
    sqlite: sqlite as never,
    pg: pg as unknown as pgCore.PgTable,
    columns: (alias) => (alias ? selectList(alias) : plain),
    decode,
  }
}
