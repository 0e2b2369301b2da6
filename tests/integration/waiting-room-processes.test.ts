// A waiting room over two real app processes on one store (one SQLite file, or under
// integration-pg one PostgreSQL database) and one Redis, each process ticking the room: buyers join
// through either process at once (a second join, on the other process, keeps the first place); the
// pre-queue opens into random places; one process is killed with kill -9 in the middle of the
// admissions and started again; the line goes on. Afterwards, from the ledger: every account in
// line once, lines 1…n each given once, admissions in line order with no line admitted twice and
// none skipped, no faster than the set rate, and every place admitted in the end.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QueuePlace } from '../../contracts/queue.ts'
import type { EventSeed } from '../bench/lib/fixtures.ts'
import { type Seeded, seed, seedPostgres } from '../bench/lib/seed.ts'
import { testStore } from '../support/db.ts'
import {
  dropQueuePrefix,
  faultEnv,
  readLedger,
  removeDir,
  type ServerEnv,
  type ServerProcess,
  sharedRedisUrl,
  startServerProcess,
} from '../support/faults.ts'
import { freshDatabase, type TestDatabase } from '../support/postgres.ts'
import { until } from '../support/sales.ts'

const EARLY = 24
const LATE = 12
/** admissions a minute: 10 a second */
const RATE = 600

let seeded: Seeded
let database: TestDatabase | undefined
let event: EventSeed
let env: ServerEnv
const apps: ServerProcess[] = []

beforeAll(async () => {
  let store: Record<string, string> = {}
  if (testStore === 'postgres') {
    database = await freshDatabase()
    const jwtSecret = randomBytes(32).toString('base64url')
    seeded = await seedPostgres({
      buyers: EARLY + LATE,
      events: 1,
      seats: 1000,
      databaseUrl: database.url,
      jwtSecret,
    })
    store = { DATABASE_URL: database.url, JWT_SECRET: jwtSecret, MEDIA_STORE: 'disk' }
  } else {
    seeded = seed({ buyers: EARLY + LATE, events: 1, seats: 1000 })
  }
  event = seeded.events[0] as EventSeed
  env = faultEnv(seeded.dataDir, { ...store, WORKERS: 'off', QUEUE_TICK_MS: '50' })
  // one after the other: the first applies the migrations
  apps.push(await startServerProcess(env))
  apps.push(await startServerProcess(env))
}, 90_000)

afterAll(async () => {
  await Promise.all(apps.map((a) => a.proc.stop()))
  await dropQueuePrefix(sharedRedisUrl, env?.QUEUE_PREFIX as string)
  if (seeded) removeDir(seeded.dataDir)
  await database?.drop()
})

const call = async (app: ServerProcess, method: string, path: string, token: string, body?: unknown) => {
  const res = await fetch(`${app.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

/** the room's facts, from the store itself */
async function roomFacts(): Promise<Array<{ type: string; data: Record<string, unknown>; at: string }>> {
  const stream = `room-${event.eventId}`
  if (database) {
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      const { rows } = await client.query(
        'SELECT type, data, at FROM ledger WHERE stream = $1 ORDER BY version',
        [stream],
      )
      return rows.map((r) => ({
        type: r.type as string,
        data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
        at: String(r.at),
      }))
    } finally {
      await client.end()
    }
  }
  return readLedger(join(seeded.dataDir, 'ticketing.sqlite'))
    .filter((f) => f.stream === stream)
    .map((f) => ({ type: f.type, data: f.data as Record<string, unknown>, at: f.at }))
}

describe('a waiting room over two processes, one of them killed mid-sale', () => {
  it('gives each account one place, admits every line once and in order, and survives the kill', async () => {
    const opensAt = Date.now() + 4000
    const set = await call(
      apps[0] as ServerProcess,
      'PUT',
      `/event/${event.eventId}/onsale`,
      seeded.organizerToken,
      {
        opensAt: new Date(opensAt).toISOString(),
        waitingRoom: true,
        admitPerMinute: RATE,
      },
    )
    expect(set.status, JSON.stringify(set.body)).toBe(200)

    // the pre-queue: every early buyer joins through both processes at once
    const early = seeded.tokens.slice(0, EARLY)
    const joins = await Promise.all(
      early.flatMap((token) => apps.map((app) => call(app, 'POST', `/event/${event.eventId}/queue`, token))),
    )
    for (const j of joins) expect([j.status, j.body.state]).toEqual([200, 'pre-queue'])

    // the opening, then the late ones join at the back, through either process
    await until(() => Date.now() > opensAt + 300, 10_000)
    const late = seeded.tokens.slice(EARLY)
    const lateJoins = await Promise.all(
      late.map((token, i) =>
        call(apps[i % 2] as ServerProcess, 'POST', `/event/${event.eventId}/queue`, token),
      ),
    )
    for (const j of lateJoins) expect(j.status).toBe(200)

    // admissions under way: one process killed, then started again on its port
    await until(async () => {
      const stats = await call(
        apps[1] as ServerProcess,
        'GET',
        `/event/${event.eventId}/queue`,
        seeded.organizerToken,
      )
      return Number(stats.body.admitted) >= 8
    }, 10_000)
    const killed = apps[0] as ServerProcess
    await killed.proc.kill9()
    await new Promise((r) => setTimeout(r, 500))
    apps[0] = await startServerProcess(env, killed.port)

    // everyone admitted in the end, whichever process is asked
    const everyone = seeded.tokens.slice(0, EARLY + LATE)
    await until(async () => {
      const places = await Promise.all(
        everyone.map((token, i) =>
          call(apps[i % 2] as ServerProcess, 'GET', `/event/${event.eventId}/queue/me`, token),
        ),
      )
      return places.every((p) => (p.body as QueuePlace).state === 'admitted')
    }, 30_000)

    const facts = await roomFacts()
    const joined = facts.filter((f) => f.type === 'QueueJoined')
    const accounts = joined.map((f) => f.data.accountId as string)
    expect(new Set(accounts).size).toBe(accounts.length)
    expect(accounts.length).toBe(EARLY + LATE)
    expect(joined.filter((f) => f.data.early).length).toBe(EARLY)
    const opened = facts.filter((f) => f.type === 'QueueOpened')
    expect(opened.map((f) => f.data.early)).toEqual([EARLY])
    // the late ones' lines: after the pre-queue's, each once
    expect(
      joined
        .filter((f) => !f.data.early)
        .map((f) => f.data.line as number)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: LATE }, (_, i) => EARLY + 1 + i))
    // admissions: consecutive ranges from line 1, none twice, none skipped, all of them
    const admitted = facts.filter((f) => f.type === 'QueueAdmitted')
    let next = 1
    for (const a of admitted) {
      expect(a.data.from).toBe(next)
      expect(a.data.through as number).toBeGreaterThanOrEqual(next)
      next = (a.data.through as number) + 1
    }
    expect(next - 1).toBe(EARLY + LATE)
    // never faster than the rate: n admitted by time t since the opening is at most rate × t,
    // give or take a burst of two seconds' worth after a lull
    const openedAt = Date.parse(opened[0]?.data.at as string)
    for (const a of admitted) {
      const seconds = (Date.parse(a.data.at as string) - openedAt) / 1000
      expect(a.data.through as number).toBeLessThanOrEqual(Math.floor((RATE / 60) * seconds) + 1)
    }
  }, 120_000)
})
