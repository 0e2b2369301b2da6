// An API token on a request (issue 43): `Authorization: Bearer tkt_<id>_<secret>`. Its row is read
// on every request (a revoked token is refused at once, in every process), its secret checked
// against the hash kept, its account still an organizer or admin; calls are counted per token.
// Its last use and address are kept in Redis (in memory without it), at most every 30 s per token.
import { timingSafeEqual } from 'node:crypto'
import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'
import type { SignedInAccount } from '../../contracts/accounts.ts'
import { API_TOKEN_PREFIX, TOKEN_INVALID } from '../../contracts/tokens.ts'
import type { Config } from '../config.ts'
import { rateLimited, unauthenticated } from '../errors.ts'
import { secretHash } from './commands.ts'
import type { IntegrationQueries } from './queries.ts'
import type { ApiTokenRow } from './tables.ts'

export type TokenUse = { lastUsedAt: string; lastAddress: string }

export type TokenAuth = {
  /** the account and token a bearer `tkt_…` speaks for; 401 when it is not a valid one */
  resolve(text: string, address: string): Promise<{ account: SignedInAccount; token: ApiTokenRow }>
  /** the last use of each of these tokens, where known */
  usesOf(tokenIds: string[]): Promise<Map<string, TokenUse>>
}

const SHAPE = new RegExp(`^${API_TOKEN_PREFIX}([a-f0-9]{24})_([A-Za-z0-9_-]{43})$`)
const RECORD_EVERY_MS = 30_000

export function tokenAuth(parts: {
  config: Pick<Config, 'rateLimits' | 'queuePrefix'>
  redis: Redis | null
  integrations: Pick<IntegrationQueries, 'token'>
  accountById: (id: string) => Promise<SignedInAccount | undefined>
}): TokenAuth {
  const { config, redis, integrations, accountById } = parts
  const usesKey = `${config.queuePrefix}-token-uses`
  const memory = new Map<string, TokenUse>()
  const recorded = new Map<string, number>()
  const options = {
    keyPrefix: `${config.queuePrefix}-limit-token`,
    points: config.rateLimits.tokenRequestsPerMinute,
    duration: 60,
  }
  const limiter = redis
    ? new RateLimiterRedis({
        ...options,
        storeClient: redis,
        insuranceLimiter: new RateLimiterMemory(options),
      })
    : new RateLimiterMemory(options)

  const record = (tokenId: string, address: string) => {
    const now = Date.now()
    if (now - (recorded.get(tokenId) ?? 0) < RECORD_EVERY_MS) return
    if (recorded.size > 100_000) recorded.clear()
    recorded.set(tokenId, now)
    const use: TokenUse = { lastUsedAt: new Date(now).toISOString(), lastAddress: address }
    if (memory.size > 100_000) memory.clear()
    memory.set(tokenId, use)
    redis?.hset(usesKey, tokenId, JSON.stringify(use)).catch(() => {})
  }

  return {
    async resolve(text, address) {
      const match = SHAPE.exec(text)
      const token = match ? await integrations.token(match[1] as string) : undefined
      const expected = token ? Buffer.from(token.secretHash, 'hex') : null
      const given = Buffer.from(secretHash(match?.[2] ?? ''), 'hex')
      if (!token || !expected || expected.length !== given.length || !timingSafeEqual(expected, given))
        throw unauthenticated(TOKEN_INVALID)
      if (
        token.revokedAt !== null ||
        (token.expiresAt !== null && token.expiresAt <= new Date().toISOString())
      )
        throw unauthenticated(TOKEN_INVALID)
      const account = await accountById(token.accountId)
      if (!account || (account.role !== 'organizers' && account.role !== 'admin'))
        throw unauthenticated(TOKEN_INVALID)
      if (config.rateLimits.enabled) {
        try {
          await limiter.consume(token.id)
        } catch (error) {
          if (!(error instanceof RateLimiterRes)) throw error
          const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000))
          throw rateLimited(
            `Too many requests with this API token: at most ${options.points} a minute. Try again in ${seconds} s.`,
            seconds,
          )
        }
      }
      record(token.id, address)
      return { account, token }
    },
    async usesOf(tokenIds) {
      const uses = new Map<string, TokenUse>()
      if (tokenIds.length === 0) return uses
      const stored = redis ? await redis.hmget(usesKey, ...tokenIds).catch(() => []) : []
      tokenIds.forEach((id, i) => {
        const text = stored[i]
        const use = text ? (JSON.parse(text) as TokenUse) : memory.get(id)
        if (use) uses.set(id, use)
      })
      return uses
    },
  }
}
