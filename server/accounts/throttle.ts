// Abuse limits for sign-in, sign-up, forgot-password and guessing promo codes. Sign-in follows rate-limiter-flexible's
// login recipe: failures are counted per (account, address) pair, so guesses from one address
// never lock the owner out from another; an account's failures from everywhere only slow it down.
import type { Redis } from 'ioredis'
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible'
import type { Config } from '../config.ts'
import { rateLimited } from '../errors.ts'

/**
 * One sign-in attempt. The password version (the account's passwordChangedAt) is part of the
 * account's and the pair's counters, so a completed reset starts them afresh.
 */
export type LoginAttempt = { email: string; passwordVersion: number; ip: string }

/** The password version of an e-mail no account has: counted like any account, never reset. */
export const UNKNOWN_ACCOUNT_VERSION = 0

export type Throttle = {
  /** Refuses when the address, or this account from this address, has failed too often, or when
   * the account is slowed and its next attempt is not due; counts the attempt as a failure before
   * the password is checked. */
  beforeLogin(attempt: LoginAttempt): Promise<void>
  loginFailed(attempt: LoginAttempt): Promise<void>
  /** A correct password forgets the pair's failures. */
  loginSucceeded(attempt: LoginAttempt): Promise<void>
  forgotRequested(email: string, ip: string): Promise<void>
  /** Every sign-up attempt counts, taken e-mail or not: both account farming and probing which
   * e-mails have accounts need many attempts from one address. */
  signupRequested(ip: string): Promise<void>
  /** Counts a promo code tried as a guess, before it is looked up, and refuses an account past its
   * allowance of codes that do not exist (guessing codes). */
  beforePromo(accountId: string): Promise<void>
  /** The code tried exists: it was no guess, and is given back. */
  promoFound(accountId: string): Promise<void>
  /** Counts one of an hourly allowance of an action, refusing it past the allowance: `key` is the
   * account, or for checkouts the account and the event (`${accountId}/${eventId}`). */
  perHour(action: HourlyAction, key: string): Promise<void>
}

/** what an account may do only so many times an hour */
export type HourlyAction = 'inquiry' | 'transfer' | 'waitlist' | 'checkout'
const hourlyWords: Record<HourlyAction, string> = {
  inquiry: 'inquiries sent',
  transfer: 'tickets transferred',
  waitlist: 'waiting list changes',
  checkout: 'checkouts for this event',
}

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000))
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000))
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`
const tooMany = (what: string, ms: number) =>
  rateLimited(`Too many ${what}. Please try again in ${plural(minutes(ms), 'minute')}.`, seconds(ms))
const slowed = (ms: number) =>
  rateLimited(
    `This account has had many failed login attempts, so it accepts them only slowly. Please try again in ${plural(seconds(ms), 'second')}.`,
    seconds(ms),
  )

// Neither a version nor an address contains '/', so no two attempts share a key.
const accountKey = (a: LoginAttempt) => `${a.passwordVersion}/${a.email}`
const pairKey = (a: LoginAttempt) => `${a.passwordVersion}/${a.ip}/${a.email}`

export function createThrottle(config: Config, redis: Redis | null): Throttle {
  const limits = config.rateLimits
  if (!limits.enabled) {
    const pass = async () => {}
    return {
      beforeLogin: pass,
      loginFailed: pass,
      loginSucceeded: pass,
      forgotRequested: pass,
      signupRequested: pass,
      beforePromo: pass,
      promoFound: pass,
      perHour: pass,
    }
  }
  const make = (name: string, points: number, durationSeconds: number): RateLimiterAbstract => {
    const options = { keyPrefix: `${config.queuePrefix}-limit-${name}`, points, duration: durationSeconds }
    if (!redis) return new RateLimiterMemory(options)
    // If Redis goes away the limits keep working in memory.
    return new RateLimiterRedis({
      ...options,
      storeClient: redis,
      insuranceLimiter: new RateLimiterMemory(options),
    })
  }
  const loginWindow = limits.loginWindowMinutes * 60
  const loginPair = make('login-pair', limits.loginFailsPerAccountAddress, loginWindow)
  const loginAccount = make('login-account', limits.loginFailsPerAccount, loginWindow)
  const loginSlow = make('login-slow', 1, limits.loginSlowSeconds)
  const loginIp = make('login-ip', limits.loginFailsPerIp, loginWindow)
  const signupIp = make('signup-ip', limits.signupsPerAddress, limits.signupWindowMinutes * 60)
  const forgotAccount = make('forgot-account', limits.forgotPerAccount, limits.forgotWindowMinutes * 60)
  const forgotIp = make('forgot-ip', limits.forgotPerIp, limits.forgotWindowMinutes * 60)
  const promoGuesses = make('promo-guess', limits.promoGuessesPerAccount, limits.promoGuessWindowMinutes * 60)
  const hourly: Record<HourlyAction, RateLimiterAbstract> = {
    inquiry: make('inquiry', limits.inquiriesPerHour, 3600),
    transfer: make('transfer', limits.transfersPerHour, 3600),
    waitlist: make('waitlist', limits.waitlistChangesPerHour, 3600),
    checkout: make('checkout', limits.checkoutsPerEventPerHour, 3600),
  }

  /** Takes a point; a refusal comes back as the limiter's answer rather than thrown. */
  const take = async (limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | null> => {
    try {
      await limiter.consume(key)
      return null
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return outcome
      throw outcome
    }
  }
  const consume = async (limiter: RateLimiterAbstract, key: string, what: string) => {
    const refused = await take(limiter, key)
    if (refused) throw tooMany(what, refused.msBeforeNext)
  }

  return {
    async beforeLogin(attempt) {
      // The address's failures are counted after the fact (loginFailed): people signing in at the
      // same moment from one address (a campus at an on-sale) are never refused for being many. A
      // burst of guesses arriving at once can pass this check together, by at most its own size;
      // each account's guesses are held exactly by the pair's count below.
      const byIp = await loginIp.get(attempt.ip)
      if (byIp && byIp.consumedPoints >= limits.loginFailsPerIp) {
        throw tooMany('failed login attempts', byIp.msBeforeNext)
      }
      // Counted before the password is checked (and given back on success): guesses sent at
      // the same moment cannot all slip under a limit.
      await consume(loginPair, pairKey(attempt), 'failed login attempts')
      const pastCeiling = await take(loginAccount, accountKey(attempt))
      if (!pastCeiling) return
      // Past the account's ceiling: never locked, since that is what an attacker wants for
      // the owner, but one attempt per loginSlowSeconds, whoever sends it.
      const notYet = await take(loginSlow, accountKey(attempt))
      if (notYet) {
        // Refused unchecked, so not a failure: the owner waiting for a turn keeps the pair's allowance.
        await Promise.all([loginPair.reward(pairKey(attempt)), loginAccount.reward(accountKey(attempt))])
        throw slowed(notYet.msBeforeNext)
      }
    },
    async loginFailed(attempt) {
      await loginIp.penalty(attempt.ip)
    },
    async loginSucceeded(attempt) {
      await Promise.all([loginPair.delete(pairKey(attempt)), loginAccount.reward(accountKey(attempt))])
    },
    async forgotRequested(email, ip) {
      await consume(forgotIp, ip, 'password reset requests')
      await consume(forgotAccount, email, 'password reset requests')
    },
    async signupRequested(ip) {
      await consume(signupIp, ip, 'sign-ups from this address')
    },
    async beforePromo(accountId) {
      await consume(promoGuesses, accountId, 'promo codes tried that do not exist')
    },
    async promoFound(accountId) {
      await promoGuesses.reward(accountId)
    },
    async perHour(action, key) {
      await consume(hourly[action], key, hourlyWords[action])
    },
  }
}
