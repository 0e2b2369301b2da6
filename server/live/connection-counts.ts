// Live connections per client address, counted across every app process on one Redis (issue 15):
// behind a load balancer each process saw only its own, so one address could hold the cap on
// every process. Each process keeps its own counts in memory and mirrors them into a Redis hash of
// its own (address → connections) that lives as long as the process keeps renewing it: a process
// killed with kill -9 stops renewing, and its connections stop counting within COUNTS_TTL_MS. A
// handshake adds every live process's count for its address to this process's. Without Redis, or
// when it does not answer, the count is this process's alone (the cap still holds per process).
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Redis } from 'ioredis'

/** how long a process's counts outlive its last renewal (renewed every third of it) */
export const COUNTS_TTL_MS = 30_000

export type ConnectionCounts = {
  /** the address's connections on every process, this one's included */
  total(address: string): Promise<number>
  opened(address: string): void
  closed(address: string): void
  stop(): Promise<void>
}

export function connectionCounts(
  redis: Redis | null,
  prefix: string,
  ttlMs = COUNTS_TTL_MS,
): ConnectionCounts {
  const local = new Map<string, number>()
  const mine = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
  const processes = `${prefix}:live:processes`
  const countsOf = (process: string) => `${prefix}:live:connections:${process}`

  const mirror = (address: string) => {
    if (redis?.status !== 'ready') return
    const count = local.get(address) ?? 0
    const key = countsOf(mine)
    const write = redis.multi()
    if (count > 0) write.hset(key, address, count)
    else write.hdel(key, address)
    write.pexpire(key, ttlMs).sadd(processes, mine)
    write.exec().catch(() => {})
  }
  // Renewed whole, so that counts a restarted Redis forgot come back within a third of the TTL.
  const renew = redis
    ? setInterval(() => {
        if (local.size === 0 || redis.status !== 'ready') return
        const key = countsOf(mine)
        redis
          .multi()
          .del(key)
          .hset(key, Object.fromEntries(local))
          .pexpire(key, ttlMs)
          .sadd(processes, mine)
          .exec()
          .catch(() => {})
      }, ttlMs / 3)
    : null
  renew?.unref()

  /** the other live processes' counts for the address (their gone ones forgotten on the way) */
  const elsewhere = async (address: string): Promise<number> => {
    if (redis?.status !== 'ready') return 0
    try {
      const others = (await redis.smembers(processes)).filter((p) => p !== mine)
      if (others.length === 0) return 0
      const read = redis.pipeline()
      for (const other of others) read.hget(countsOf(other), address).exists(countsOf(other))
      const replies = (await read.exec()) ?? []
      let sum = 0
      const gone: string[] = []
      others.forEach((other, i) => {
        const count = Number(replies[2 * i]?.[1] ?? 0)
        if (replies[2 * i + 1]?.[1] === 0) gone.push(other)
        else sum += count
      })
      if (gone.length > 0) void redis.srem(processes, ...gone).catch(() => {})
      return sum
    } catch {
      return 0
    }
  }

  return {
    total: async (address) => (local.get(address) ?? 0) + (await elsewhere(address)),
    opened(address) {
      local.set(address, (local.get(address) ?? 0) + 1)
      mirror(address)
    },
    closed(address) {
      const left = (local.get(address) ?? 1) - 1
      if (left > 0) local.set(address, left)
      else local.delete(address)
      mirror(address)
    },
    async stop() {
      if (renew) clearInterval(renew)
      local.clear()
      if (redis && redis.status === 'ready')
        await redis
          .multi()
          .del(countsOf(mine))
          .srem(processes, mine)
          .exec()
          .catch(() => {})
    },
  }
}
