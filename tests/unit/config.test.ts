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
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379')
    expect(config.publicUrl).toBe('http://localhost:3000')
    expect(config.rateLimits.enabled).toBe(true)
    expect(config.resetTokenMinutes).toBe(30)
    expect(config.admin).toBeNull()
  })

  it('reads and converts settings', () => {
    const config = loadConfig({
      PORT: '4000',
      REDIS_URL: 'off',
      RATE_LIMITS: 'off',
      ADMIN_EMAIL: ' Boss@Example.com ',
      ADMIN_PASSWORD: 'secret1',
      LOGIN_FAILS_PER_ACCOUNT: '7',
    })
    expect(config.port).toBe(4000)
    expect(config.publicUrl).toBe('http://localhost:4000')
    expect(config.redisUrl).toBeNull()
    expect(config.rateLimits).toMatchObject({ enabled: false, loginFailsPerAccount: 7 })
    expect(config.admin).toEqual({ email: 'boss@example.com', password: 'secret1', username: 'admin' })
  })

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['SQLITE_SYNCHRONOUS', 'OFF'],
    ['REDIS_URL', 'http://localhost'],
    ['JWT_SECRET', 'short'],
    ['RATE_LIMITS', 'maybe'],
    ['LOGIN_FAILS_PER_ACCOUNT', '0'],
    ['JWT_EXPIRES_IN', 'forever'],
    ['ADMIN_EMAIL', 'not-an-email'],
  ])('stops on a bad %s, naming it', (key, value) => {
    const extra: Record<string, string> = key === 'ADMIN_EMAIL' ? { ADMIN_PASSWORD: 'secret1' } : {}
    expect(problemsOf({ [key]: value, ...extra })).toContain(key)
  })

  it('wants ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(problemsOf({ ADMIN_EMAIL: 'a@b.co' })).toMatch(/ADMIN_EMAIL and ADMIN_PASSWORD/)
  })
})
