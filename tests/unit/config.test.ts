import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/config.ts'

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.message
    throw error
  }
  return ''
}

describe('loadConfig', () => {
  it('has a default for every setting', () => {
    const config = loadConfig({})
    expect(config.port).toBe(3000)
    expect(config.dataDir).toMatch(/data$/)
    expect(config.sqliteSynchronous).toBe('FULL')
    expect(config.sqliteCacheMb).toBe(16)
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379')
    expect(config.publicUrl).toBe('http://localhost:3000')
    expect(config.rateLimits.enabled).toBe(true)
    expect(config.resetTokenMinutes).toBe(30)
    expect(config.admin).toBeNull()
    expect(config.checkinOpensHours).toBe(24)
  })

  it('reads and converts settings', () => {
    const config = loadConfig({
      PORT: '4000',
      REDIS_URL: 'off',
      RATE_LIMITS: 'off',
      ADMIN_EMAIL: ' Boss@Example.com ',
      ADMIN_PASSWORD: 'secret1',
      LOGIN_FAILS_PER_ACCOUNT: '7',
      SQLITE_CACHE_MB: '128',
      CHECKIN_OPENS_HOURS: ' 0 ',
    })
    expect(config.checkinOpensHours).toBe(0)
    expect(config.port).toBe(4000)
    expect(config.sqliteCacheMb).toBe(128)
    expect(config.publicUrl).toBe('http://localhost:4000')
    expect(config.redisUrl).toBeNull()
    expect(config.rateLimits).toMatchObject({ enabled: false, loginFailsPerAccount: 7 })
    expect(config.admin).toEqual({ email: 'boss@example.com', password: 'secret1', username: 'admin' })
  })

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['SQLITE_SYNCHRONOUS', 'OFF'],
    ['SQLITE_CACHE_MB', '0'],
    ['SQLITE_CACHE_MB', 'lots'],
    ['REDIS_URL', 'http://localhost'],
    ['JWT_SECRET', 'short'],
    ['RATE_LIMITS', 'maybe'],
    ['LOGIN_FAILS_PER_ACCOUNT', '0'],
    ['JWT_EXPIRES_IN', 'forever'],
    ['ADMIN_EMAIL', 'not-an-email'],
    ['CHECKIN_OPENS_HOURS', '-1'],
    ['CHECKIN_OPENS_HOURS', '2.5'],
    ['CHECKIN_OPENS_HOURS', '9000'],
  ])('stops on a bad %s, naming it', (key, value) => {
    const extra: Record<string, string> = key === 'ADMIN_EMAIL' ? { ADMIN_PASSWORD: 'secret1' } : {}
    expect(problemsOf({ [key]: value, ...extra })).toContain(key)
  })

  it('wants ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(problemsOf({ ADMIN_EMAIL: 'a@b.co' })).toMatch(/ADMIN_EMAIL and ADMIN_PASSWORD/)
  })

  describe('DATABASE_URL', () => {
    const url = 'postgres://app:secret@db.internal:5432/tickets'

    it('needs JWT_SECRET: processes sharing a database must agree on it', () => {
      expect(problemsOf({ DATABASE_URL: url })).toMatch(/JWT_SECRET: required with DATABASE_URL/)
      expect(loadConfig({ DATABASE_URL: url, JWT_SECRET: 'k'.repeat(32) }).databaseUrl).toBe(url)
    })

    it('sizes the pool, within bounds', () => {
      const secret = { DATABASE_URL: url, JWT_SECRET: 'k'.repeat(32) }
      expect(loadConfig(secret).databasePoolSize).toBe(10)
      expect(loadConfig({ ...secret, DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25)
      expect(problemsOf({ ...secret, DATABASE_POOL_SIZE: '1' })).toMatch(/DATABASE_POOL_SIZE/)
    })

    it('lets the heap grow 50% past its last full collection unless told otherwise, within bounds', () => {
      const secret = { DATABASE_URL: url, JWT_SECRET: 'k'.repeat(32) }
      expect(loadConfig(secret).heapGrowingPercent).toBe(50)
      expect(loadConfig({ ...secret, HEAP_GROWING_PERCENT: '25' }).heapGrowingPercent).toBe(25)
      expect(problemsOf({ ...secret, HEAP_GROWING_PERCENT: '5' })).toMatch(/HEAP_GROWING_PERCENT/)
      expect(problemsOf({ ...secret, HEAP_GROWING_PERCENT: '150' })).toMatch(/HEAP_GROWING_PERCENT/)
    })
  })

  describe('MEDIA_STORE', () => {
    const url = 'postgres://app:secret@db.internal:5432/tickets'
    const JWT_SECRET = 'k'.repeat(32)

    it('keeps media on disk without DATABASE_URL, and in PostgreSQL with it', () => {
      expect(loadConfig({})).toMatchObject({ databaseUrl: null, mediaStore: 'disk' })
      expect(loadConfig({ DATABASE_URL: url, JWT_SECRET })).toMatchObject({
        databaseUrl: url,
        mediaStore: 'database',
      })
      expect(loadConfig({ DATABASE_URL: 'postgresql://db/tickets', JWT_SECRET }).mediaStore).toBe('database')
    })

    it('takes either choice when set', () => {
      expect(loadConfig({ DATABASE_URL: url, MEDIA_STORE: 'disk', JWT_SECRET }).mediaStore).toBe('disk')
      expect(loadConfig({ DATABASE_URL: url, MEDIA_STORE: 'database', JWT_SECRET }).mediaStore).toBe(
        'database',
      )
      expect(loadConfig({ MEDIA_STORE: 'disk' }).mediaStore).toBe('disk')
    })

    it('stops on database without DATABASE_URL, saying what to set', () => {
      expect(problemsOf({ MEDIA_STORE: 'database' })).toMatch(/MEDIA_STORE: database .* needs DATABASE_URL/)
      expect(problemsOf({ MEDIA_STORE: 'cloud' })).toMatch(/MEDIA_STORE: must be disk or database/)
    })

    it('takes only a PostgreSQL URL as DATABASE_URL, and does not repeat its password', () => {
      for (const bad of ['mysql://app:secret@db/tickets', 'db.internal:5432', 'postgres://']) {
        const problems = problemsOf({ DATABASE_URL: bad })
        expect(problems, bad).toMatch(/DATABASE_URL: must be a PostgreSQL URL/)
        expect(problems, bad).not.toContain('secret')
      }
    })
  })
})

describe('in production (NODE_ENV=production)', () => {
  // a production that starts: every other setting below is refused on its own
  const production = {
    NODE_ENV: 'production',
    JWT_SECRET: 'Qm7vX2pL9kR4tY8wE1sD6fG3hJ5zC0bN',
    PUBLIC_URL: 'https://tickets.example.com',
    PAYMENT_PROVIDER: 'razorpay',
    RAZORPAY_KEY_ID: 'rzp_live_example',
    RAZORPAY_KEY_SECRET: 'Zx8kQ2mP9vL4nR7tY1wE3sD6',
    RAZORPAY_WEBHOOK_SECRET: 'webhook-7Gk2pQ9xLm4Vz8',
    ADMIN_EMAIL: 'boss@example.com',
    ADMIN_PASSWORD: 'a long admin passphrase',
  }
  const refusedIn = (env: Record<string, string>) => problemsOf({ ...production, ...env })

  it('starts with safe settings', () => {
    expect(refusedIn({})).toBe('')
    expect(refusedIn({ CORS_ORIGINS: 'https://partner.example, https://shop.example:8443' })).toBe('')
    expect(refusedIn({ PUBLIC_URL: 'https://tickets.example.com/' })).toBe('')
  })

  it.each([
    'https://localhost',
    'https://LOCALHOST:3000',
    'https://localhost.',
    'https://tickets.localhost',
    'https://tickets.localhost.',
    'https://localhost.localdomain',
    'https://127.0.0.1',
    'https://127.0.0.1.',
    'https://127.9.8.7',
    'https://127.1',
    'https://2130706433',
    'https://0x7f.1',
    'https://0x7f000001',
    'https://0177.0.0.1',
    'https://0.0.0.0',
    'https://0',
    'https://[::1]',
    'https://[0:0:0:0:0:0:0:1]',
    'https://[::]',
    'https://[::ffff:127.0.0.1]',
    'https://[::ffff:7f00:1]',
    'https://[::ffff:0.0.0.0]',
    'https://[::127.0.0.1]',
  ])('refuses PUBLIC_URL=%s, a loopback address in one of its spellings', (url) => {
    expect(refusedIn({ PUBLIC_URL: url })).toMatch(/PUBLIC_URL: must be the https:\/\/ address/)
  })

  it.each([
    ['null', /CORS_ORIGINS: null /],
    ['https://partner.example,null', /CORS_ORIGINS: null /],
    ['http://partner.example', /CORS_ORIGINS: .*https:\/\/.*\(http:\/\/partner\.example\)/],
    ['https://partner.example, http://shop.example', /CORS_ORIGINS: .*\(http:\/\/shop\.example\)/],
    ['https://[::ffff:127.0.0.1]', /CORS_ORIGINS: localhost origins/],
    ['https://2130706433', /CORS_ORIGINS: localhost origins/],
    ['partner.example', /CORS_ORIGINS: .*partner\.example/],
    ['https://partner.example/path', /CORS_ORIGINS: .*https:\/\/partner\.example\/path/],
  ])('refuses CORS_ORIGINS=%s', (origins, message) => {
    expect(refusedIn({ CORS_ORIGINS: origins })).toMatch(message)
  })

  it('refuses an ADMIN_PASSWORD shorter than 15 characters, or of too few different ones', () => {
    expect(refusedIn({ ADMIN_PASSWORD: 'secret' })).toMatch(/ADMIN_PASSWORD: .*at least 15 characters/)
    expect(refusedIn({ ADMIN_PASSWORD: 'fourteen-chars' })).toMatch(/ADMIN_PASSWORD: .*at least 15/)
    expect(refusedIn({ ADMIN_PASSWORD: 'ab'.repeat(10) })).toMatch(/ADMIN_PASSWORD: too easy to guess/)
    expect(refusedIn({ ADMIN_PASSWORD: 'fifteen-chars-x' })).toBe('')
  })

  it.each(['RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'])(
    'refuses a %s of too few different characters, as JWT_SECRET',
    (key) => {
      expect(refusedIn({ [key]: 'x'.repeat(24) })).toMatch(new RegExp(`${key}: too easy to guess`))
      expect(refusedIn({ [key]: 'abcabcabcabc' })).toMatch(new RegExp(`${key}: too easy to guess`))
      // the local gateway of a test sale takes them too when they are set
      expect(
        refusedIn({ PAYMENT_PROVIDER: 'local', ALLOW_TEST_PAYMENTS: 'on', [key]: 'x'.repeat(24) }),
      ).toMatch(new RegExp(`${key}: too easy to guess`))
    },
  )

  it('never repeats a secret it refuses', () => {
    const admin = { ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'x'.repeat(20) }
    const refusedAnywhere = {
      JWT_SECRET: 'abcdefghij',
      RAZORPAY_KEY_SECRET: 'rks1',
      RAZORPAY_WEBHOOK_SECRET: 'rws1',
      ADMIN_PASSWORD: 'hunt2',
      PASS_SIGNING_KEY: 'not-a-key-at-all',
    }
    const refusedInProduction = {
      JWT_SECRET: 'ab'.repeat(20),
      RAZORPAY_KEY_SECRET: 'kkkkkkkkkkkk',
      RAZORPAY_WEBHOOK_SECRET: 'whwhwhwhwhwh',
      ADMIN_PASSWORD: 'hunter2hunter2',
    }
    const cases = [
      ...Object.entries(refusedAnywhere).flatMap(([key, value]) => [
        [key, value, { ...admin, [key]: value }],
        [key, value, { ...production, [key]: value }],
      ]),
      ...Object.entries(refusedInProduction).map(([key, value]) => [
        key,
        value,
        { ...production, [key]: value },
      ]),
    ] as Array<[string, string, Record<string, string>]>
    for (const [key, value, env] of cases) {
      const problems = problemsOf(env)
      expect(problems, `${key} in ${env.NODE_ENV ?? 'development'}`).toContain(key)
      expect(problems, `${key} in ${env.NODE_ENV ?? 'development'}`).not.toContain(value)
    }
  })

  it('does not repeat a password written into a URL setting', () => {
    const problems = refusedIn({ PUBLIC_URL: 'http://admin:pa55word@tickets.example.com' })
    expect(problems).toContain('PUBLIC_URL')
    expect(problems).not.toContain('pa55word')
    const origins = refusedIn({ CORS_ORIGINS: 'http://user:corsword@partner.example' })
    expect(origins).toContain('CORS_ORIGINS')
    expect(origins).not.toContain('corsword')
  })
})
