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
