// The commands a newcomer runs: the server process, the worker process, admin:create.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { waitForMail } from '../support/outbox.ts'
import { freePort } from '../support/server.ts'

const running: ChildProcess[] = []
const dirs: string[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'process-test-'))
  dirs.push(dir)
  return dir
}

function start(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.push(child)
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const waitFor = async (pattern: RegExp, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs
    while (!pattern.test(output)) {
      if (Date.now() > deadline) throw new Error(`no ${pattern} in output:\n${output}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  return { child, exited, waitFor, output: () => output }
}

describe('the server process', () => {
  it('starts on PORT, applies migrations, keeps a JWT secret in DATA_DIR, says when Redis is off, stops on SIGTERM', async () => {
    const dir = dataDir()
    const port = await freePort()
    const server = start('server/main.ts', {
      DATA_DIR: dir,
      PORT: String(port),
      REDIS_URL: 'off',
      HOST: '127.0.0.1',
    })
    await server.waitFor(/listening on http:\/\/localhost:\d+/)
    expect(server.output()).toMatch(/REDIS_URL is off: jobs run in-process/)
    const health = await fetch(`http://127.0.0.1:${port}/api/v1/health/ready`)
    expect(health.status).toBe(200)
    expect(existsSync(join(dir, 'jwt-secret'))).toBe(true)
    expect(existsSync(join(dir, 'ticketing.sqlite'))).toBe(true)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it('still runs when Redis does not answer, and says so', async () => {
    const port = await freePort()
    const server = start('server/main.ts', {
      DATA_DIR: dataDir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    })
    await server.waitFor(/listening on/)
    expect(server.output()).toMatch(/Redis did not answer .* jobs run in-process/)
  })

  it('stops at once on a bad setting, naming it', async () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, DATA_DIR: dataDir(), PORT: 'eighty' },
      encoding: 'utf8',
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/PORT: must be a port number/)
  })
})

describe('the worker process', () => {
  it('sends the mail that a server without workers enqueued', async () => {
    const dir = dataDir()
    const port = await freePort()
    const env = {
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      QUEUE_PREFIX: `test-proc-${port}`,
      ADMIN_EMAIL: 'boss@example.com',
      ADMIN_PASSWORD: 'boss-secret',
    }
    const server = start('server/main.ts', { ...env, WORKERS: 'off' })
    await server.waitFor(/listening on .*workers off/)
    const reply = await fetch(`http://127.0.0.1:${port}/api/v1/auth/forgotpassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'boss@example.com' }),
    })
    expect(reply.status).toBe(200)
    await new Promise((r) => setTimeout(r, 300))
    expect(existsSync(join(dir, 'outbox'))).toBe(false)
    const workers = start('workers/main.ts', env)
    await workers.waitFor(/Workers are running/)
    const mail = await waitForMail(join(dir, 'outbox'), (m) => m.to === 'boss@example.com')
    expect(mail.text).toMatch(new RegExp(`http://localhost:${port}/reset-password/[A-Za-z0-9_-]{20,}`))
  })
})

describe('npm run admin:create', () => {
  it('creates the admin once and never overwrites it', () => {
    const dir = dataDir()
    const run = (password: string) =>
      spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'server/accounts/create-admin.ts',
          '--email',
          'Root@Example.com',
          '--password',
          password,
        ],
        {
          env: { ...process.env, DATA_DIR: dir },
          encoding: 'utf8',
        },
      )
    const first = run('first-secret')
    expect(first.status, first.stderr).toBe(0)
    expect(first.stdout).toContain('Admin root@example.com created.')
    const second = run('other-secret')
    expect(second.status).toBe(0)
    expect(second.stdout).toContain('already exists (role admin); left unchanged')
  })
})
