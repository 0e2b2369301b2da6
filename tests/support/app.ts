// Boots the real app on a fresh data folder (real SQLite file) with a queue prefix of its own on
// the real Redis, so test files run side by side without seeing each other.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { type Config, loadConfig, withJwtSecret } from '../../server/config.ts'
import { buildApp } from '../../server/root.ts'
import { scanReplies } from './secrets.ts'

export type TestApp = {
  app: FastifyInstance
  config: Config
  dir: string
  close(): Promise<void>
}

export const ADMIN = { email: 'admin@example.com', password: 'admin-secret', username: 'Admin' }

export function testConfig(overrides: Record<string, string> = {}): Config {
  const dir = mkdtempSync(join(tmpdir(), 'ticketing-test-'))
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

/** The secret values an app must never send: its keys, and every stored password and link hash. */
export function storedSecrets(app: FastifyInstance, config: Config): string[] {
  const column = (sql: string) =>
    (app.platform.connection.sqlite.prepare(sql).all() as Array<{ value: string }>).map((row) => row.value)
  return [
    config.jwt.secret,
    config.payments.keySecret,
    config.payments.webhookSecret,
    ...column('SELECT password_hash AS value FROM accounts'),
    ...column('SELECT token_hash AS value FROM password_reset_links'),
  ]
}

/**
 * The real app. Every reply a test gets through app.inject is kept and, when the app closes,
 * scanned for password hashes, reset-link hashes and secrets: a leak anywhere in the integration
 * suite fails the file that caused it.
 */
export async function startApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = testConfig(overrides)
  const app = await buildApp(config)
  const scanner = scanReplies(app, () => storedSecrets(app, config))
  return {
    app,
    config,
    dir: config.dataDir,
    async close() {
      const leaks = scanner.findings()
      scanner.stop()
      await app.close()
      rmSync(config.dataDir, { recursive: true, force: true })
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
