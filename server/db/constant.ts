// Comparisons with a constant of the code written into the SQL rather than bound as a parameter.
// SQLite plans a prepared statement again on every run when the value bound to one of its
// parameters decides whether a partial index may serve it (orders' indexes are partial on their
// status): `status = ?` made each of the hold's order lookups ~10 times slower (13 µs instead of
// 1.4) than `status = 'held'` (issue 18, measured on the flash sale). Only for constants of the
// code: user input is always bound.
import { type SQL, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'

const literal = (value: string) => {
  if (!/^[A-Za-z_]+$/.test(value)) throw new Error(`not a constant of the code: ${value}`)
  return `'${value}'`
}

/** `column = 'value'`, the value written into the statement */
export const equalsConstant = (column: SQLiteColumn, value: string): SQL =>
  sql`${column} = ${sql.raw(literal(value))}`

/** `column IN ('a', 'b')`, the values written into the statement */
export const inConstants = (column: SQLiteColumn, values: readonly string[]): SQL =>
  sql`${column} IN (${sql.raw(values.map(literal).join(', '))})`
