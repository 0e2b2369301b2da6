// The commands a newcomer runs: the server process, the worker process, admin:create.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { storeSettings } from '../support/app.ts'
import { waitForMail } from '../support/outbox.ts'
import { freePort } from '../support/server.ts'

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const repo = resolve(import.meta.dirname, '../..')

const running: ChildProcess[] = []
const dirs: string[] = []
const databases: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const child of running.splice(0)) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  for (const drop of databases.splice(0)) await drop()
})

/** The suite's store for the processes of one test: DATABASE_URL and JWT_SECRET under integration-pg
 * (a database of the test's own, dropped after it), nothing on SQLite (a file in DATA_DIR). */
async function suiteStore(): Promise<Record<string, string>> {
  const store = await storeSettings()
  databases.push(store.drop)
  return store.env
}

const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'process-test-'))
  dirs.push(dir)
  return dir
}

/** A real process of ours. `cwd` (default this repository) and `inherited` (default the whole
 * environment) let a test start it elsewhere, on an environment of its choosing. */
function start(
  script: string,
  env: Record<string, string>,
  { cwd, inherited = process.env }: { cwd?: string; inherited?: NodeJS.ProcessEnv } = {},
) {
  const child = spawn(process.execPath, ['--import', tsx, resolve(repo, script)], {
    cwd,
    env: { ...inherited, ...env },
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
  // a cold start on a busy 2-core machine (the suite's other files running) can pass 20 s
  const waitFor = async (pattern: RegExp, timeoutMs = 45_000) => {
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

describe('the server process in production (NODE_ENV=production)', () => {
  const SECRET = 'a-production-secret-of-at-least-32-characters'
  /** Starts the real process with these settings and waits for it to exit (a refusal) or listen. */
  const startProduction = (env: Record<string, string>) =>
    start('server/main.ts', {
      NODE_ENV: 'production',
      DATA_DIR: dataDir(),
      HOST: '127.0.0.1',
      REDIS_URL: 'off',
      LOG_LEVEL: 'info',
      ...env,
    })
  const refusal = async (env: Record<string, string>) => {
    const server = startProduction({ PORT: '0', ...env })
    const code = await Promise.race([
      server.exited,
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000)),
    ])
    return { code, output: server.output() }
  }

  it('with nothing else set, refuses to start: the test gateway, no JWT_SECRET, no PUBLIC_URL', async () => {
    const { code, output } = await refusal({})
    expect(code).not.toBe(0)
    expect(code).not.toBe('still running')
    expect(output).toMatch(/PAYMENT_PROVIDER: .*PAYMENT_PROVIDER=razorpay/)
    expect(output).toMatch(/JWT_SECRET: required in production/)
    expect(output).toMatch(/PUBLIC_URL: required in production/)
  })

  it.each([
    ['RATE_LIMITS', { RATE_LIMITS: 'off' }, /RATE_LIMITS: off is refused in production/],
    ['JWT_EXPIRES_IN', { JWT_EXPIRES_IN: '31d' }, /JWT_EXPIRES_IN: at most 30d/],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'http://localhost:5173' }, /CORS_ORIGINS: localhost origins/],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://partner.example,*' }, /CORS_ORIGINS: \* would let any site/],
    ['JWT_SECRET', { JWT_SECRET: 'ab'.repeat(20) }, /JWT_SECRET: too easy to guess/],
    [
      'PUBLIC_URL',
      { PUBLIC_URL: 'http://localhost:3000', ALLOW_TEST_PAYMENTS: 'off' },
      /PUBLIC_URL: must be the https:\/\/ address/,
    ],
  ])('refuses %s that is unsafe in production', async (_name, env, message) => {
    const { code, output } = await refusal({
      JWT_SECRET: SECRET,
      PUBLIC_URL: 'https://tickets.example.com',
      ALLOW_TEST_PAYMENTS: 'on',
      ...env,
    })
    expect(code).toBe(1)
    expect(output).toMatch(message)
  })

  it('refuses weak secrets and a short admin password, naming each and showing none of them', async () => {
    const weak = {
      JWT_SECRET: 'abcdefghij',
      RAZORPAY_KEY_SECRET: 'kkkkkkkkkkkkkkkkkkkkkkkk',
      RAZORPAY_WEBHOOK_SECRET: 'wh-wh-wh-wh-wh-wh',
      ADMIN_PASSWORD: 'boss12',
    }
    const { code, output } = await refusal({
      PUBLIC_URL: 'https://[::ffff:127.0.0.1]',
      PAYMENT_PROVIDER: 'razorpay',
      RAZORPAY_KEY_ID: 'rzp_live_example',
      ADMIN_EMAIL: 'boss@example.com',
      CORS_ORIGINS: 'null,http://partner.example',
      ...weak,
    })
    expect(code).toBe(1)
    expect(output).toMatch(/JWT_SECRET: must be at least 32 characters \(got 10 characters, not shown\)/)
    for (const value of Object.values(weak)) expect(output).not.toContain(value)

    const again = await refusal({ ...weak, JWT_SECRET: SECRET, ADMIN_EMAIL: 'boss@example.com' })
    expect(again.code).toBe(1)
    for (const key of ['RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET']) {
      expect(again.output).toMatch(new RegExp(`${key}: too easy to guess`))
    }
    expect(again.output).toMatch(/ADMIN_PASSWORD: must be at least 15 characters in production/)
    for (const value of Object.values(weak)) expect(again.output).not.toContain(value)

    const addresses = await refusal({
      JWT_SECRET: SECRET,
      PAYMENT_PROVIDER: 'razorpay',
      RAZORPAY_KEY_ID: 'rzp_live_example',
      RAZORPAY_KEY_SECRET: 'a-live-key-secret',
      RAZORPAY_WEBHOOK_SECRET: 'a-live-webhook-secret',
      PUBLIC_URL: 'https://[::ffff:127.0.0.1]',
      CORS_ORIGINS: 'null,http://partner.example',
    })
    expect(addresses.code).toBe(1)
    expect(addresses.output).toMatch(/PUBLIC_URL: must be the https:\/\/ address/)
    expect(addresses.output).toMatch(/CORS_ORIGINS: null /)
    expect(addresses.output).toMatch(/CORS_ORIGINS: only https:\/\/ origins .*\(http:\/\/partner\.example\)/)
  }, 90_000)

  it('with ALLOW_TEST_PAYMENTS=on, starts with a warning, says so to the web app, and signs with no known secret', {
    timeout: 90_000,
  }, async () => {
    const port = await freePort()
    const server = startProduction({
      PORT: String(port),
      JWT_SECRET: SECRET,
      PUBLIC_URL: 'https://tickets.example.com',
      ALLOW_TEST_PAYMENTS: 'on',
    })
    await server.waitFor(/listening on/)
    expect(server.output()).toMatch(/ALLOW_TEST_PAYMENTS=on: .*no money moves/)
    const site = await (await fetch(`http://127.0.0.1:${port}/api/v1/site`)).json()
    expect(site).toMatchObject({ testPayments: true })
    // The development keys are public: in production they open nothing.
    const developmentKey = Buffer.from('rzp_test_local:local-development-key-secret').toString('base64')
    const order = await fetch(`http://127.0.0.1:${port}/api/v1/payments/local/v1/orders`, {
      method: 'POST',
      headers: { authorization: `Basic ${developmentKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 100, currency: 'INR' }),
    })
    expect(order.status).toBe(401)
  })

  it('with razorpay, serves no local gateway routes and shows no test banner', {
    timeout: 90_000,
  }, async () => {
    const port = await freePort()
    const server = startProduction({
      PORT: String(port),
      JWT_SECRET: SECRET,
      PUBLIC_URL: 'https://tickets.example.com',
      PAYMENT_PROVIDER: 'razorpay',
      RAZORPAY_KEY_ID: 'rzp_live_example',
      RAZORPAY_KEY_SECRET: 'a-live-key-secret',
      RAZORPAY_WEBHOOK_SECRET: 'a-live-webhook-secret',
    })
    await server.waitFor(/listening on/)
    expect(server.output()).not.toMatch(/no money moves/)
    const site = await (await fetch(`http://127.0.0.1:${port}/api/v1/site`)).json()
    expect(site).toMatchObject({ testPayments: false })
    for (const path of ['/api/v1/payments/local/pay', '/api/v1/payments/local/v1/orders']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST' })
      expect(res.status, path).toBe(404)
    }
  })
})

describe('the worker process', () => {
  // two processes started one after the other: 18 s on a quiet machine, over 30 s on a busy one
  it('sends the mail that a server without workers enqueued', { timeout: 90_000 }, async () => {
    const dir = dataDir()
    const port = await freePort()
    const env = {
      ...(await suiteStore()),
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
  it('creates the admin once and never overwrites it', async () => {
    const dir = dataDir()
    const store = await suiteStore()
    const run = (password: string) =>
      spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'server/cli/create-admin.ts',
          '--email',
          'Root@Example.com',
          '--password',
          password,
        ],
        {
          env: { ...process.env, DATA_DIR: dir, ...store },
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

describe('a .env file in the working directory', () => {
  // The server started from a folder holding only `dotenv` as .env, with `env` on top of an
  // environment that sets none of the file's keys.
  const startIn = (dotenv: string, env: Record<string, string> = {}) => {
    const cwd = dataDir()
    writeFileSync(join(cwd, '.env'), dotenv)
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !/^(PORT|HOST|DATA_DIR|REDIS_URL|LOG_[A-Z]+)$/.test(key)),
    )
    return { cwd, ...start('server/main.ts', env, { cwd, inherited }) }
  }

  it('is read at start: the server listens on its PORT, keeps data in its DATA_DIR, and logs each request once, as JSON', async () => {
    const port = await freePort()
    const server = startIn(
      `# copied from .env.example\nPORT=${port}\nHOST=127.0.0.1\nREDIS_URL=off\nDATA_DIR=./here\n`,
    )
    await server.waitFor(new RegExp(`listening on http://localhost:${port}`))
    expect(existsSync(join(server.cwd, 'here', 'ticketing.sqlite'))).toBe(true)

    const reply = await fetch(`http://127.0.0.1:${port}/api/v1/health/live`, {
      headers: { 'x-request-id': 'one-line-please' },
    })
    expect(reply.status).toBe(200)
    await server.waitFor(/"reqId":"one-line-please".*\n/)
    await new Promise((r) => setTimeout(r, 200))
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('one-line-please'))
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 30,
      reqId: 'one-line-please',
      method: 'GET',
      url: '/api/v1/health/live',
      status: 200,
      ms: expect.any(Number),
      msg: expect.stringMatching(/^GET \/api\/v1\/health\/live 200 \d+ ms$/),
    })
  })

  it('gives way to the environment: a setting the environment has is not taken from the file', async () => {
    const port = await freePort()
    const server = startIn('PORT=not-a-port\nHOST=127.0.0.1\nREDIS_URL=off\nDATA_DIR=./here\n', {
      PORT: String(port),
    })
    await server.waitFor(new RegExp(`listening on http://localhost:${port}`))
  })

  it('passes the same checks: a bad value stops the server, naming the setting and the file', async () => {
    const server = startIn('HOST=127.0.0.1\nREDIS_URL=off\nDATA_DIR=./here\nPORT=seventy\n')
    const code = await Promise.race([
      server.exited,
      new Promise<'still running'>((done) => setTimeout(() => done('still running'), 20_000)),
    ])
    expect(code).toBe(1)
    expect(server.output()).toMatch(/PORT: must be a port number \(got "seventy"\), read from .*\.env/)
  })

  it('LOG_FORMAT=pretty writes readable lines: one per request', async () => {
    const port = await freePort()
    const server = startIn(
      `PORT=${port}\nHOST=127.0.0.1\nREDIS_URL=off\nDATA_DIR=./here\nNODE_ENV=development\nLOG_FORMAT=pretty\n`,
      { NODE_ENV: '' },
    )
    await server.waitFor(new RegExp(`listening on http://localhost:${port}`))
    await fetch(`http://127.0.0.1:${port}/api/v1/health/live`, { headers: { 'x-request-id': 'pretty-one' } })
    await server.waitFor(/pretty-one\)/)
    await new Promise((r) => setTimeout(r, 200))
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('pretty-one'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[[\d:.]+\] INFO: GET \/api\/v1\/health\/live 200 \d+ ms \(pretty-one\)$/)
  })
})
