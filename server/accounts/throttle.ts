// Brute-force limits for login and forgot-password. Login counts failures only, per account and
// per IP (the IP limit is higher, so many people behind one address can still sign in).
import type { Redis } from 'ioredis'
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible'
import type { Config } from '../config.ts'
import { rateLimited } from '../errors.ts'

export type Throttle = {
  /** Refuses when the address or the account has failed too often; takes one attempt from the
   * account's allowance before the password is checked. */
  beforeLogin(email: string, ip: string): Promise<void>
  loginFailed(ip: string): Promise<void>
  /** A correct password forgets the account's failures. */
  loginSucceeded(email: string): Promise<void>
  forgotRequested(email: string, ip: string): Promise<void>
}

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000))
const tooMany = (what: string, ms: number) =>
  rateLimited(
    `Too many ${what}. Please try again in ${minutes(ms)} minute${minutes(ms) === 1 ? '' : 's'}.`,
    Math.ceil(ms / 1000),
  )

export function createThrottle(config: Config, redis: Redis | null): Throttle {
  const limits = config.rateLimits
  if (!limits.enabled) {
    const pass = async () => {}
    return { beforeLogin: pass, loginFailed: pass, loginSucceeded: pass, forgotRequested: pass }
  }
  const make = (name: string, points: number, windowMinutes: number): RateLimiterAbstract => {
    const options = { keyPrefix: `${config.queuePrefix}-limit-${name}`, points, duration: windowMinutes * 60 }
    if (!redis) return new RateLimiterMemory(options)
    // If Redis goes away the limits keep working in memory.
    return new RateLimiterRedis({
      ...options,
      storeClient: redis,
      insuranceLimiter: new RateLimiterMemory(options),
    })
  }
  const loginAccount = make('login-account', limits.loginFailsPerAccount, limits.loginWindowMinutes)
  const loginIp = make('login-ip', limits.loginFailsPerIp, limits.loginWindowMinutes)
  const forgotAccount = make('forgot-account', limits.forgotPerAccount, limits.forgotWindowMinutes)
  const forgotIp = make('forgot-ip', limits.forgotPerIp, limits.forgotWindowMinutes)

  const consume = async (limiter: RateLimiterAbstract, key: string, what: string) => {
    try {
      await limiter.consume(key)
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) throw tooMany(what, outcome.msBeforeNext)
      throw outcome
    }
  }

  return {
    async beforeLogin(email, ip) {
      const byIp = await loginIp.get(ip)
      if (byIp && byIp.consumedPoints >= limits.loginFailsPerIp) {
        throw tooMany('failed login attempts', byIp.msBeforeNext)
      }
      // Taken before the password is checked: guesses at one account sent at the same moment
      // cannot all slip past its limit.
      await consume(loginAccount, email, 'failed login attempts')
    },
    async loginFailed(ip) {
      // The address's count grows with failures only, after the fact: people signing in at
      // the same moment from one address are never refused for being many.
      await loginIp.penalty(ip)
    },
    async loginSucceeded(email) {
      await loginAccount.delete(email)
    },
    async forgotRequested(email, ip) {
      await consume(forgotIp, ip, 'password reset requests')
      await consume(forgotAccount, email, 'password reset requests')
    },
  }
}
