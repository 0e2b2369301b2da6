// The record of sent mails on PostgreSQL (issue 15): pgSentMailRecord answers what sentMailRecord
// answers on SQLite, shared by every process on the database, and its '~recorded-since' row is the
// moment its migration made the table, as SQLite's migration 0005 wrote it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Connection, openDatabase } from '../../server/db/connection.ts'
import { openPostgres, type PgConnection } from '../../server/db/pg-connection.ts'
import { pgSentMailRecord } from '../../server/mail/pg-sent.ts'
import { type SentMails, sentMailRecord } from '../../server/mail/sent.ts'
import { freshDatabase, type TestDatabase } from '../support/postgres.ts'

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const dir = mkdtempSync(join(tmpdir(), 'pg-sent-mails-test-'))
let database: TestDatabase
let sqlite: Connection
/** two pools on one database: two worker processes */
const pools: PgConnection[] = []
let migratedBetween: [string, string]

beforeAll(async () => {
  database = await freshDatabase()
  const before = new Date().toISOString()
  pools.push(await openPostgres(database.url, 2))
  migratedBetween = [before, new Date().toISOString()]
  pools.push(await openPostgres(database.url, 2))
  sqlite = openDatabase(join(dir, 'app.sqlite'))
})
afterAll(async () => {
  for (const pool of pools) await pool.close()
  await database?.drop()
  sqlite?.close()
  rmSync(dir, { recursive: true, force: true })
})

const first = () => pgSentMailRecord((pools[0] as PgConnection).db)
const second = () => pgSentMailRecord((pools[1] as PgConnection).db)

describe('pgSentMailRecord', () => {
  it('records a job as sent once, seen by every process on the database', async () => {
    const jobId = 'mail-issued-order-1'
    expect(await first().wasSent(jobId)).toBe(false)
    await first().record(jobId)
    expect(await first().wasSent(jobId)).toBe(true)
    expect(await second().wasSent(jobId)).toBe(true)
    expect(await second().wasSent('mail-issued-order-2')).toBe(false)

    const sentAt = async () =>
      (
        await (pools[0] as PgConnection).pool.query('SELECT sent_at FROM sent_mails WHERE job_id = $1', [
          jobId,
        ])
      ).rows
    const recorded = await sentAt()
    expect(recorded).toEqual([{ sent_at: expect.stringMatching(isoTime) }])
    // recorded again (two workers ran the job): kept as first recorded, no error
    await Promise.all([first().record(jobId), second().record(jobId)])
    expect(await sentAt()).toEqual(recorded)
  })

  it('has recorded since its migration made the table, in the ISO form facts are dated in', async () => {
    const since = await first().recordedSince()
    expect(since).toMatch(isoTime)
    const [before, after] = migratedBetween
    // the database runs on this machine's clock (a second's slack): its now() is within the migration
    expect(since >= before.slice(0, 19) && since <= after).toBe(true)
    expect(await second().recordedSince()).toBe(since)
    expect(await first().wasSent('~recorded-since')).toBe(true)
  })
})

describe('SentMails: both records, awaited', () => {
  /** the repair's question, asked of either record */
  const unsent = async (sent: SentMails, jobIds: string[]) => {
    const left: string[] = []
    for (const jobId of jobIds) if (!(await sent.wasSent(jobId))) left.push(jobId)
    return { left, since: await sent.recordedSince() }
  }

  it('answer the same', async () => {
    const records: SentMails[] = [sentMailRecord(sqlite.db), first()]
    for (const sent of records) {
      await sent.record('mail-a')
      await sent.record('mail-c')
    }
    const [onSqlite, onPostgres] = await Promise.all(
      records.map((sent) => unsent(sent, ['mail-a', 'mail-b', 'mail-c', 'mail-d'])),
    )
    expect(onSqlite?.left).toEqual(['mail-b', 'mail-d'])
    expect(onPostgres?.left).toEqual(['mail-b', 'mail-d'])
    expect(onSqlite?.since).toMatch(isoTime)
    expect(onPostgres?.since).toMatch(isoTime)
  })
})
