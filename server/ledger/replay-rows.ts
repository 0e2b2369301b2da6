// Rows a projection's replay keeps in memory (Projection.replay, ledger.replaying): a rebuild's
// read models start empty and nobody reads them until the replay ends, so figures that many facts
// add to (counts per ticket type, per event, per person…) are added up here and each row written
// once, not moved by one statement per fact (issue 18: ten of a paid order's twenty statements).
// At most `limit` rows are held: then every row is written, and a row needed again is read back.

/** rows a replay holds at most, unless told otherwise */
export const REPLAY_ROWS = 200_000

export type ReplayRows<Row> = {
  /** the row of a key: held, else stored (only once rows were written: until then, none is), else none */
  find(key: string, read: () => Row | undefined): Row | null
  /** the row of a key, made when there is none */
  ensure(key: string, read: () => Row | undefined, make: () => Row): Row
}

export function replayRows(limit: number) {
  const tables: Array<{ rows: Map<string, unknown>; write(row: unknown): void }> = []
  /** rows held in every table together */
  let count = 0
  let written = false
  const flush = () => {
    for (const { rows, write } of tables) {
      for (const row of rows.values()) if (row) write(row)
      rows.clear()
    }
    count = 0
    written = true
  }
  return {
    /** a table's rows, written by `upsert` (of the whole row, by its named fields: it may be there already) */
    table<Row>(upsert: { run(row: Row): unknown }): ReplayRows<Row> {
      return held<Row>((row) => upsert.run(row))
    },
    /**
     * the same, `upsert` taking the row's values in the order of `columns` (positional parameters:
     * for a row of many columns, binding by name cost a fifth more)
     */
    tableByColumns<Row>(upsert: { run(values: unknown[]): unknown }, columns: ReadonlyArray<keyof Row>) {
      return held<Row>((row) => upsert.run(columns.map((column) => row[column])))
    },
    /** writes every row held */
    flush,
  }

  function held<Row>(write: (row: Row) => unknown): ReplayRows<Row> {
    const rows = new Map<string, Row | null>()
    tables.push({ rows, write: write as (row: unknown) => void })
    const find = (key: string, read: () => Row | undefined) => {
      let row = rows.get(key)
      if (row === undefined) {
        if (count >= limit) flush()
        row = (written ? read() : undefined) ?? null
        rows.set(key, row)
        count++
      }
      return row
    }
    return {
      find,
      ensure(key, read, make) {
        let row = rows.get(key)
        if (row) return row
        if (row === undefined) {
          // as find(), without putting a null in first
          if (count >= limit) flush()
          row = written ? read() : undefined
          count++
        }
        row ??= make()
        rows.set(key, row)
        return row
      },
    }
  }
}
