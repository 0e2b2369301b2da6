// npm run ledger:copy -- --from <sqlite file | postgres://…> --to <sqlite file | postgres://…>
// Copies every fact of one store's ledger into the other's, which must be empty (a new SQLite file,
// or a PostgreSQL database with no facts), and builds its read models on the way: moving a box office
// from one machine's SQLite file to PostgreSQL, or back. The source is only read.
import { parseArgs } from 'node:util'
import { openDatabase } from '../db/connection.ts'
import { openPostgres } from '../db/pg-connection.ts'
import { type CopyEnd, copyLedger } from '../ledger/copy.ts'
import { pgAppLedger } from '../pg-projections.ts'
import { appLedger } from '../projections.ts'

const isPostgres = (where: string) => /^postgres(ql)?:\/\//.test(where)

/** One end of the copy, opened (migrations applied), and how to close it. */
async function open(where: string): Promise<{ end: CopyEnd; close(): Promise<void> | void }> {
  if (isPostgres(where)) {
    const connection = await openPostgres(where)
    return {
      end: { store: 'postgres', ledger: pgAppLedger(connection.pool) },
      close: () => connection.close(),
    }
  }
  const connection = openDatabase(where)
  return { end: { store: 'sqlite', ledger: appLedger(connection) }, close: () => connection.close() }
}

const usage =
  'Usage: npm run ledger:copy -- --from <sqlite file | postgres://…> --to <sqlite file | postgres://…>'

try {
  const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } } })
  if (!values.from || !values.to) throw new Error(usage)
  if (isPostgres(values.from) === isPostgres(values.to))
    throw new Error(`${usage}\nOne end is a SQLite file and the other a postgres:// URL.`)
  const from = await open(values.from)
  const to = await open(values.to)
  try {
    const started = performance.now()
    const facts = await copyLedger(from.end, to.end)
    const seconds = (performance.now() - started) / 1000
    console.log(`Copied ${facts} facts and built the read models in ${seconds.toFixed(2)} s.`)
  } finally {
    await from.close()
    await to.close()
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
