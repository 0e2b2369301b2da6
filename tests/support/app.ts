// Boots the real app on a fresh data folder with a queue prefix of its own on the real Redis, so test
// files run side by side without seeing each other. The store is the suite's (issue 15): a SQLite
// file in the data folder, or with TEST_STORE=postgres (vitest's integration-pg project) a fresh
// PostgreSQL database of the app's own, dropped when it closes.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { type Config, loadConfig, withJwtSecret } from '../../server/config.ts'
import { buildApp } from '../../server/root.ts'
import { dbRows, testStore } from './db.ts'
import { freshDatabase } from './postgres.ts'
import { scanReplies } from './secrets.ts'

export type TestApp = {
  app: FastifyInstance
  config: Config
  dir: string
  close(): Promise<void>
}

export const ADMIN = { email: 'admin@example.com', password: 'admin-secret', username: 'Admin' }

/** An app's settings, on a fresh data folder unless DATA_DIR is given: SQLite there, unless DATABASE_URL is. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  const dir = overrides.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'ticketing-test-'))
  return withJwtSecret(
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dir,
      QUEUE_PREFIX: `test-${randomBytes(5).toString('hex')}`,
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_USERNAME: ADMIN.username,
      SIGNUPS_PER_ADDRESS: '100000',
      // Every test request comes from one address; the tests of the per-address cap set their own.
      MAX_HELD_SEATS_PER_ADDRESS: '100000',
      ...overrides,
    }),
  )
}

/** The settings that put an app on the suite's store, and what to drop once it is done with. */
export type StoreSettings = {
  /** DATABASE_URL, JWT_SECRET and MEDIA_STORE on PostgreSQL; nothing on SQLite (a file under DATA_DIR) */
  env: Record<string, string>
  /** drops the database (PostgreSQL); nothing on SQLite */
  drop(): Promise<void>
}

/**
 * A database of its own on the suite's store: on PostgreSQL a fresh one (each test file its own,
 * so files still run in parallel) and a random JWT_SECRET, which DATABASE_URL requires.
 */
export async function storeSettings(store = testStore): Promise<StoreSettings> {
  if (store !== 'postgres') return { env: {}, drop: async () => {} }
  const database = await freshDatabase()
  return {
    env: {
      DATABASE_URL: database.url,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      // Media stay in DATA_DIR/uploads, where the suite's tests of uploads look for them (on
      // PostgreSQL they would go to its media table by default: media-database.test.ts's part).
      MEDIA_STORE: 'disk',
    },
    drop: () => database.drop(),
  }
}

/**
 * An app's settings on the suite's store, and release(): removes the data folder and drops the
 * database it made. A DATA_DIR or DATABASE_URL in the overrides is the caller's (an app started
 * again on what an earlier one left): used as it is, and left alone by release().
 */
export type StoreConfig = { config: Config; release(): Promise<void> }

export async function testConfigOnStore(overrides: Record<string, string> = {}): Promise<StoreConfig> {
  const store = overrides.DATABASE_URL ? await storeSettings('sqlite') : await storeSettings()
  let config: Config
  try {
    config = testConfig({ ...store.env, ...overrides })
  } catch (error) {
    await store.drop()
    throw error
  }
  return {
    config,
    async release() {
      if (!overrides.DATA_DIR) rmSync(config.dataDir, { recursive: true, force: true })
      await store.drop()
    },
  }
}

/** The settings that start another app on the store this config's app used (a restart). */
export const sameStore = (config: Config): Record<string, string> =>
  config.databaseUrl
    ? { DATABASE_URL: config.databaseUrl, JWT_SECRET: config.jwt.secret, MEDIA_STORE: config.mediaStore }
    : {}

/** The secret values an app must never send: its keys, and every stored password and link hash. */
export async function storedSecrets(app: FastifyInstance, config: Config): Promise<string[]> {
  const column = async (sql: string) => (await dbRows<{ value: string }>(app, sql)).map((row) => row.value)
  return [
    config.jwt.secret,
    config.payments.keySecret,
    config.payments.webhookSecret,
    ...(await column('SELECT password_hash AS value FROM accounts')),
    ...(await column('SELECT token_hash AS value FROM password_reset_links')),
  ]
}

/**
 * The real app. Every reply a test gets through app.inject is kept and, when the app closes,
 * scanned for password hashes, reset-link hashes and secrets: a leak anywhere in the integration
 * suite fails the file that caused it.
 */
export async function startApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const { config, release } = await testConfigOnStore(overrides)
  let app: FastifyInstance
  try {
    app = await buildApp(config)
  } catch (error) {
    await release()
    throw error
  }
  const scanner = scanReplies(app, () => storedSecrets(app, config))
  return {
    app,
    config,
    dir: config.dataDir,
    async close() {
      let leaks: string[]
      try {
        leaks = await scanner.findings()
      } finally {
        scanner.stop()
        await app.close()
        await release()
      }
      if (leaks.length > 0) throw new Error(`Replies leaked secrets:\n${leaks.slice(0, 10).join('\n')}`)
    },
  }
}

/**
 * Every route the app serves, as 'METHOD /path' ('GET /api/v1/event/:id', 'OPTIONS *'), read from
 * Fastify's own route table (printRoutes draws the radix tree: a route's path is its branch's
 * segments joined). HEAD is left out: Fastify makes it from GET, with GET's hooks.
 */
export function servedRoutes(app: FastifyInstance): string[] {
  const served: string[] = []
  const prefixes: string[] = []
  for (const line of app.printRoutes().split('\n')) {
    const branch = line.search(/[├└]── /)
    if (branch < 0) continue
    const depth = branch / 4
    const node = line.slice(branch + 4)
    const methods = / \(([A-Z, ]+)\)$/.exec(node)
    const segment = (methods ? node.slice(0, methods.index) : node).replace('(empty root node)', '')
    const path = (prefixes[depth - 1] ?? '') + segment
    prefixes[depth] = path
    prefixes.length = depth + 1
    for (const method of methods?.[1]?.split(', ') ?? []) {
      if (method !== 'HEAD') served.push(`${method} ${path}`)
    }
  }
  return [...new Set(served)].sort()
}
