// A PostgreSQL database of its own for each test file (issue 15: the suite runs on both stores, its
// files in parallel): created on the server of TEST_DATABASE_URL (by default the local one CI starts,
// trust auth), dropped afterwards.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { PgLedger, PgTx } from '../../server/ledger/pg-ledger.ts'

export const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export type TestDatabase = { url: string; drop(): Promise<void> }

export async function freshDatabase(): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect().catch((error: Error) => {
    throw new Error(
      `PostgreSQL does not answer at ${serverUrl} (${error.message}): the tests need it as they need Redis; ` +
        '.ci/run starts one, or set TEST_DATABASE_URL.',
      { cause: error },
    )
  })
  try {
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl })
      await client.connect()
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      } finally {
        await client.end()
      }
    },
  }
}

/**
 * A fact appended in a transaction held open: resolves once the fact has its position; `release()`
 * lets the transaction commit, and `committed` resolves to the fact's position when it has. What a
 * fact committing below positions others have committed meanwhile looks like to a reader.
 */
export async function heldAppend(
  ledger: PgLedger,
  stream: string,
  fact: { type: string; data: unknown },
): Promise<{ release: () => void; committed: Promise<number | undefined> }> {
  let appended!: () => void
  const isAppended = new Promise<void>((resolve) => {
    appended = resolve
  })
  let release!: () => void
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  const committed = ledger.transaction(async (tx: PgTx) => {
    const [stored] = await tx.append(stream, 'any', [fact])
    appended()
    await held
    return stored?.position
  })
  await isAppended
  return { release, committed }
}
