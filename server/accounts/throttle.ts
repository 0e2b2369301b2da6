// Abuse limits for sign-in, sign-up, forgot-password and guessing promo codes. Sign-in follows rate-limiter-flexible's
// login recipe: failures are counted per (account, address) pair, so guesses from one address
// never lock the owner out from another; an account's failures from everywhere only slow it down.
import { randomUUID } from 'node:crypto'
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
  /**
   * One sign-in attempt, `check` being the password's check (true: it matches). Refuses when the
   * address, or this account from this address, has failed too often, or when the account is
   * slowed and its next attempt is not due. A failure is counted against the pair before the check
   * and against the address after it; a correct password forgets the pair's failures.
   */
  login(attempt: LoginAttempt, check: () => Promise<boolean>): Promise<boolean>
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
export type HourlyAction =
  | 'inquiry'
  | 'transfer'
  | 'waitlist'
  | 'queue'
  | 'door-staff'
  | 'checkout'
  | 'seatmap'
  | 'integration'
  | 'redelivery'
  | 'sale-room'
const hourlyWords: Record<HourlyAction, string> = {
  inquiry: 'inquiries sent',
  transfer: 'tickets transferred',
  waitlist: 'waiting list changes',
  queue: 'lines joined',
  'door-staff': 'door staff changes',
  checkout: 'checkouts for this event',
  seatmap: 'seat maps saved',
  integration: 'API tokens and webhooks added',
  redelivery: 'deliveries asked for again',
  'sale-room': 'changes to sales and waiting rooms',
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

/** How long a sign-in waits for its address's turn before it is refused (turns last a password check). */
const LOGIN_TURN_WAIT_MS = 10_000
/** A turn not given back within this long (its process ended mid-check) no longer counts. */
const LOGIN_TURN_MS = 30_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The sign-in checks under way per address, in every process: a sorted set per address in Redis
 * (a turn's score is when it was taken, so one never given back lapses), in memory without Redis
 * or while Redis does not answer.
 */
function loginTurns(prefix: string, redis: Redis | null) {
  const local = new Map<string, Set<string>>()
  const holdLocally = (ip: string, turn: string) => {
    const held = local.get(ip) ?? new Set<string>()
    local.set(ip, held.add(turn))
    return held.size
  }
  const releaseLocally = (ip: string, turn: string) => {
    const held = local.get(ip)
    held?.delete(turn)
    if (held?.size === 0) local.delete(ip)
  }
  const key = (ip: string) => `${prefix}-limit-login-turns:${ip}`
  const HOLD = `redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[3]))
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return redis.call('ZCARD', KEYS[1])`
  return {
    async hold(ip: string, turn: string): Promise<number> {
      if (!redis) return holdLocally(ip, turn)
      try {
        return Number(await redis.eval(HOLD, 1, key(ip), Date.now(), turn, LOGIN_TURN_MS))
      } catch {
        return holdLocally(ip, turn)
      }
    },
    async release(ip: string, turn: string): Promise<void> {
      releaseLocally(ip, turn)
      if (!redis) return
      await redis.zrem(key(ip), turn).catch(() => {})
    },
  }
}

export function createThrottle(config: Config, redis: Redis | null): Throttle {
  const limits = config.rateLimits
  if (!limits.enabled) {
    const pass = async () => {}
    return {
      login: (_attempt, check) => check(),
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
    queue: make('queue', limits.queueJoinsPerHour, 3600),
    'door-staff': make('door-staff', limits.doorStaffChangesPerHour, 3600),
    checkout: make('checkout', limits.checkoutsPerEventPerHour, 3600),
    seatmap: make('seatmap', limits.seatMapSavesPerHour, 3600),
    integration: make('integration', limits.integrationsAddedPerHour, 3600),
    redelivery: make('redelivery', limits.redeliveriesPerHour, 3600),
    'sale-room': make('sale-room', limits.saleRoomChangesPerHour, 3600),
  }

  const turns = loginTurns(config.queuePrefix, redis)

  /**
   * A turn to check a password from this address. Its failures are counted once each check has
   * failed, and the checks under way are turns held: a turn is given only while the failures
   * already counted and the turns held stay within the address's allowance, so a burst of guesses
   * arriving at once ends at its limit (each fails before the next is let through), while people
   * signing in at once (a campus at an on-sale) are never refused for being many: past the
   * allowance they wait their turn, the time of a password check, and are refused only once the
   * address has failed its allowance.
   */
  const takeLoginTurn = async (ip: string): Promise<() => Promise<void>> => {
    const deadline = Date.now() + LOGIN_TURN_WAIT_MS
    let pauseMs = 5
    for (;;) {
      const turn = randomUUID()
      // held first, then the failures read: a check that fails in between is counted twice (a
      // wait), never missed
      const held = await turns.hold(ip, turn)
      const failures = await loginIp.get(ip)
      const failed = failures?.consumedPoints ?? 0
      if (failed + held <= limits.loginFailsPerIp) return () => turns.release(ip, turn)
      await turns.release(ip, turn)
      if (failed >= limits.loginFailsPerIp) {
        throw tooMany('failed login attempts', failures?.msBeforeNext ?? loginWindow * 1000)
      }
      if (Date.now() > deadline) throw tooMany('sign-ins from this address at once', LOGIN_TURN_WAIT_MS)
      await sleep(pauseMs + Math.random() * pauseMs)
      pauseMs = Math.min(pauseMs * 2, 80)
    }
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
    async login(attempt, check) {
      const release = await takeLoginTurn(attempt.ip)
      try {
        // Counted before the password is checked (and given back on success): guesses sent at
        // the same moment cannot all slip under a limit.
        await consume(loginPair, pairKey(attempt), 'failed login attempts')
        const pastCeiling = await take(loginAccount, accountKey(attempt))
        if (pastCeiling) {
          // Past the account's ceiling: never locked, since that is what an attacker wants for
          // the owner, but one attempt per loginSlowSeconds, whoever sends it.
          const notYet = await take(loginSlow, accountKey(attempt))
          if (notYet) {
            // Refused unchecked, so not a failure: the owner waiting for a turn keeps the pair's allowance.
            await Promise.all([loginPair.reward(pairKey(attempt)), loginAccount.reward(accountKey(attempt))])
            throw slowed(notYet.msBeforeNext)
          }
        }
        const matches = await check()
        if (matches) {
          await Promise.all([loginPair.delete(pairKey(attempt)), loginAccount.reward(accountKey(attempt))])
        } else {
          // counted before the turn is given back, so no turn is given against a failure not yet counted
          await loginIp.penalty(attempt.ip)
        }
        return matches
      } finally {
        await release()
      }
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
