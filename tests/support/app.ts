// Boots the real app on a fresh data folder (real SQLite file) with a queue prefix of its own on
// the real Redis, so test files run side by side without seeing each other.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app.ts'
import { type Config, loadConfig, withJwtSecret } from '../../server/config.ts'

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
      ...overrides,
    }),
  )
}

export async function startApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = testConfig(overrides)
  const app = await buildApp(config)
  return {
    app,
    config,
    dir: config.dataDir,
    async close() {
      await app.close()
      rmSync(config.dataDir, { recursive: true, force: true })
    },
  }
}
