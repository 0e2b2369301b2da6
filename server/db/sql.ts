// The read side's executor port: a read model's statements are written once, with drizzle's `sql`
// template and named parameters, and run on either store. On SQLite a statement is prepared once per
// connection on better-sqlite3 and answers at once (inside the ledger's synchronous transaction);
// on PostgreSQL it is rendered once as $n text and answers a promise, on the pool or inside the
// appending transaction. Awaitable answers are composed with then() or, in a projection's handler,
// with store.ts's generator steps (`yield* wait(…)`).
//
// Values pass as they are, but for two kinds SQLite cannot bind: a boolean is 1 or 0, and an array
// (only ever a list given to inList()) is JSON text for json_each(). JSON columns are passed as text.
import type Database from 'better-sqlite3'
import { Placeholder, type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core'
import pg from 'pg'
import type { Awaitable } from './store.ts'

const pgEscape = pg.escapeLiteral

export type Dialect = 'sqlite' | 'postgres'

/** Placeholders by parameter name: `${p.eventId}` in a statement's template. */
export type Params<P> = { readonly [K in keyof P]-?: Placeholder }

/** What differs between the two dialects, spelled once for a statement's template. */
export type DialectKit = {
  readonly dialect: Dialect
  /** `expr IN (the list)`: json_each() of JSON text on SQLite, = ANY(array) on PostgreSQL */
  inList(expr: SQL, list: unknown): SQL
  /** text compared byte by byte, as SQLite's BINARY collation does (PostgreSQL: collate "C") */
  bytes(expr: SQL): SQL
  /** ASCII case-insensitive comparison (SQLite: collate nocase; PostgreSQL: lower()) */
  nocase(expr: SQL): SQL
  /** an aggregate: the texts of a group joined with commas, null for none (group_concat, string_agg) */
  joined(expr: SQL): SQL
}

const kits: Record<Dialect, DialectKit> = {
  sqlite: {
    dialect: 'sqlite',
    inList: (expr, list) => sql`${expr} IN (SELECT value FROM json_each(${list}))`,
    bytes: (expr) => expr,
    nocase: (expr) => sql`${expr} COLLATE NOCASE`,
    joined: (expr) => sql`group_concat(${expr}, ',')`,
  },
  postgres: {
    dialect: 'postgres',
    inList: (expr, list) => sql`${expr} = ANY(${list})`,
    bytes: (expr) => sql`${expr} COLLATE "C"`,
    nocase: (expr) => sql`lower(${expr})`,
    joined: (expr) => sql`string_agg(${expr}, ',')`,
  },
}

type Compiled = { text: string; params: readonly unknown[]; name: string }

/** what an executor needs of a statement */
type Compilable = { compile(dialect: Dialect): Compiled }

/** statements rendered so far: each one's name as a prepared statement on PostgreSQL */
let named = 0

const sqliteDialect = new SQLiteSyncDialect()
const pgDialect = new PgDialect()

/**
 * A statement written once: its template is rendered for each dialect on first use. `P` names its
 * parameters, `R` the row it reads (as selected, e.g. with a table's columns()).
 */
export class Statement<P extends object = Record<string, never>, R = Record<string, unknown>> {
  private compiled: Partial<Record<Dialect, Compiled>> = {}
  /** its parameters' and row's types, for inference only (never set) */
  readonly types?: { params: P; row: R }
  constructor(private readonly build: (p: Params<P>, d: DialectKit) => SQL) {}

  compile(dialect: Dialect): Compiled {
    const done = this.compiled[dialect]
    if (done) return done
    const names = new Proxy({} as Params<P>, {
      get: (_, name) => sql.placeholder(String(name)),
    })
    const query = this.build(names, kits[dialect])
    const rendered = dialect === 'sqlite' ? sqliteDialect.sqlToQuery(query) : pgDialect.sqlToQuery(query)
    const compiled = { text: rendered.sql, params: rendered.params, name: `read-${++named}` }
    this.compiled[dialect] = compiled
    return compiled
  }
}

/** Declares a statement: `statement<{ id: string }, Row>((p) => sql\`SELECT … WHERE id = ${p.id}\`)` */
export function statement<P extends object = Record<string, never>, R = Record<string, unknown>>(
  build: (p: Params<P>, d: DialectKit) => SQL,
): Statement<P, R> {
  return new Statement(build)
}

/**
 * One statement per LIMIT, the limit written into its text. SQLite (3.53 here) reads a bound
 * LIMIT's value when it plans a statement, so a statement whose LIMIT is a parameter is prepared
 * again at every run: 4-9 µs a run through better-sqlite3, as much as the read itself. For limits
 * the code sets, never a client's: each limit keeps a statement.
 */
export function perLimit<S>(make: (limit: SQL) => S): (limit: number) => S {
  return perWholeNumber((limit) => make(sql.raw(String(limit))))
}

/** What `make` gives for each whole number it is asked for, made once: perLimit's, for raw SQL text. */
export function perWholeNumber<S>(make: (n: number) => S): (n: number) => S {
  const made = new Map<number, S>()
  return (n) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`Expected a whole number, not ${n}`)
    let one = made.get(n)
    if (!one) {
      one = make(n)
      made.set(n, one)
    }
    return one
  }
}

/** Runs statements on one store: now on SQLite, awaited on PostgreSQL. */
export type Sql = {
  readonly dialect: Dialect
  all<P extends object, R>(statement: Statement<P, R>, params: P): Awaitable<R[]>
  get<P extends object, R>(statement: Statement<P, R>, params: P): Awaitable<R | undefined>
  run<P extends object>(statement: Statement<P, unknown>, params: P): Awaitable<void>
}

function valuesOf(params: readonly unknown[], given: object, forSqlite: boolean): unknown[] {
  const named = given as Record<string, unknown>
  return params.map((param) => {
    if (!(param instanceof Placeholder)) return param
    if (!(param.name in named)) throw new Error(`No value for the statement's parameter "${param.name}"`)
    const value = named[param.name]
    if (!forSqlite) return value === undefined ? null : value
    if (value === undefined) return null
    if (typeof value === 'boolean') return value ? 1 : 0
    if (Array.isArray(value)) return JSON.stringify(value)
    return value
  })
}

/** Statements on one better-sqlite3 connection, each prepared once. */
export function sqliteSql(connection: Database.Database): Sql {
  const prepared = new WeakMap<Compilable, { stmt: Database.Statement; params: readonly unknown[] }>()
  const prepare = (statement: Compilable) => {
    let entry = prepared.get(statement)
    if (!entry) {
      const { text, params } = statement.compile('sqlite')
      entry = { stmt: connection.prepare(text), params }
      prepared.set(statement, entry)
    }
    return entry
  }
  return {
    dialect: 'sqlite',
    all: (statement, params) => {
      const { stmt, params: names } = prepare(statement as unknown as Compilable)
      return stmt.all(...valuesOf(names, params, true)) as never
    },
    get: (statement, params) => {
      const { stmt, params: names } = prepare(statement as unknown as Compilable)
      return stmt.get(...valuesOf(names, params, true)) as never
    },
    run: (statement, params) => {
      const { stmt, params: names } = prepare(statement as unknown as Compilable)
      stmt.run(...valuesOf(names, params, true))
    },
  }
}

/** What PostgreSQL statements run on: the pool, or a transaction of the ledger (PgTx). */
export type PgQueryable = {
  /** `name`, when given, makes it a prepared statement of each connection, parsed once there */
  query<R extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    values?: unknown[],
    name?: string,
  ): Promise<R[]>
  /**
   * A write whose answer nobody reads, sent with the next statement that is read (or the commit):
   * a transaction's projection writes cost no round trip of their own. Absent: run() queries.
   */
  exec?(text: string, values: unknown[]): void
}

/** One value as an SQL literal, of no type of its own (as a parameter with none given is). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'string') return pgEscape(value)
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Not a number SQL can take: ${value}`)
    return `'${value}'`
  }
  if (typeof value === 'bigint' || typeof value === 'boolean') return `'${value}'`
  if (value instanceof Date) return pgEscape(value.toISOString())
  if (Buffer.isBuffer(value)) return `'\\x${value.toString('hex')}'`
  if (Array.isArray(value)) return pgEscape(arrayText(value))
  return pgEscape(JSON.stringify(value))
}

/** a list as PostgreSQL's array text: {"a","b"} */
function arrayText(list: readonly unknown[]): string {
  const item = (v: unknown): string =>
    v === null || v === undefined
      ? 'NULL'
      : Array.isArray(v)
        ? arrayText(v)
        : `"${String(v).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`
  return `{${list.map(item).join(',')}}`
}

/**
 * A statement's $n text with its values written in as literals: what a transaction sends several
 * statements as, in one simple query (one round trip). Each literal is untyped, so PostgreSQL types
 * it from where it stands, as it types a parameter sent without a type. Quoted text and names are
 * left as they are.
 */
export function inlined(text: string, values: readonly unknown[]): string {
  if (values.length === 0) return text
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (match, n: string | undefined) => {
    if (n === undefined) return match
    const index = Number(n) - 1
    if (index < 0 || index >= values.length) throw new Error(`No value for $${n}`)
    return literal(values[index])
  })
}

/** The pool as a PgQueryable: each statement a query of its own. */
export const poolQueryable = (pool: pg.Pool): PgQueryable => ({
  query: async <R extends pg.QueryResultRow>(text: string, values?: unknown[], name?: string) =>
    (await pool.query<R>(name ? { name, text, values } : { text, values })).rows,
})

/** Statements on PostgreSQL, through the pool or a transaction. */
export function pgSql(on: PgQueryable): Sql {
  const rows = (statement: Compilable, params: object) => {
    const { text, params: names, name } = statement.compile('postgres')
    return on.query(text, valuesOf(names, params, false), name)
  }
  return {
    dialect: 'postgres',
    all: (statement, params) => rows(statement as unknown as Compilable, params) as never,
    get: async (statement, params) =>
      ((await rows(statement as unknown as Compilable, params)) as unknown[])[0] as never,
    run: (statement, params) => {
      if (!on.exec) return rows(statement as unknown as Compilable, params).then(() => {})
      const { text, params: names } = (statement as unknown as Compilable).compile('postgres')
      on.exec(text, valuesOf(names, params, false))
    },
  }
}

/** An answer that must have come already (SQLite's, as a rebuild replay reads it): a promise is a mistake. */
export function answered<T>(value: Awaitable<T>): T {
  if (value instanceof Promise) throw new Error('A read expected to answer at once (SQLite) answers later')
  return value
}

/** Applies `f` to an answer, now or when it comes (not named then: a module exporting then is a thenable). */
export function after<T, U>(value: Awaitable<T>, f: (value: T) => U): Awaitable<U> {
  return value instanceof Promise ? value.then(f) : f(value)
}

/** after(), where f's answer is one too (a read that needs the one before): now or later */
export const afterThat = <T, U>(value: Awaitable<T>, f: (value: T) => Awaitable<U>): Awaitable<U> =>
  after(value, f) as Awaitable<U>

/** Queries as they answer on SQLite: at once (each Awaitable answer is its value). */
export type Now<Q> = {
  [K in keyof Q]: Q[K] extends (...args: infer A) => infer R ? (...args: A) => Awaited<R> : Q[K]
}

/** Queries over SQLite's executor (sqliteSql), typed as the answers they give: at once. */
export const answeringNow = <Q>(queries: Q): Now<Q> => queries as Now<Q>
