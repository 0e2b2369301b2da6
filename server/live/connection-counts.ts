// Live connections per client address, counted across every app process on one Redis (issue 15):
// behind a load balancer each process saw only its own, so one address could hold the cap on
// every process. Each process keeps its own counts in memory and mirrors them into a Redis hash of
// its own (address → connections) that lives as long as the process keeps renewing it: a process
// killed with kill -9 stops renewing, and its connections stop counting within COUNTS_TTL_MS. A
// handshake adds every live process's count for its address to this process's, and counts itself,
// in one step (RESERVE). Without Redis, or when it does not answer, the count is this process's
// alone (the cap still holds per process).
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Redis } from 'ioredis'

/** how long a process's counts outlive its last renewal (renewed every third of it) */
export const COUNTS_TTL_MS = 30_000

/**
 * One step on Redis (a script runs alone there, so two processes' steps are taken in turn): the
 * other live processes' counts for the address, forgetting the processes gone; then, when this
 * process's connections of the address (`position`, the new one among them) fit under the cap with
 * them, this process's count written. KEYS: the set of processes. ARGV: the counts' key prefix,
 * this process, the address, position, the cap, the TTL in ms. Answers 1 when counted, 0 if not.
 */
const RESERVE = `
local sum = 0
for _, other in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if other ~= ARGV[2] then
    local key = ARGV[1] .. other
    if redis.call('EXISTS', key) == 0 then
      redis.call('SREM', KEYS[1], other)
    else
      sum = sum + tonumber(redis.call('HGET', key, ARGV[3]) or '0')
    end
  end
end
if tonumber(ARGV[4]) + sum > tonumber(ARGV[5]) then return 0 end
local mine = ARGV[1] .. ARGV[2]
redis.call('HSET', mine, ARGV[3], ARGV[4])
redis.call('PEXPIRE', mine, ARGV[6])
redis.call('SADD', KEYS[1], ARGV[2])
return 1
`

export type ConnectionCounts = {
  /**
   * Counts one more connection of the address unless that puts it over `cap` on all the processes
   * together: true when counted (closed() gives it back). Decided at once for this process's own
   * connections, so exactly the cap's worth of handshakes arriving together get in; and with the
   * others' in one step on Redis, so two processes never both give away the address's last place.
   */
  reserve(address: string, cap: number): Promise<boolean>
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

  const mirror = async (address: string): Promise<void> => {
    if (redis?.status !== 'ready') return
    const count = local.get(address) ?? 0
    const key = countsOf(mine)
    const write = redis.multi()
    if (count > 0) write.hset(key, address, count)
    else write.hdel(key, address)
    write.pexpire(key, ttlMs).sadd(processes, mine)
    await write.exec().catch(() => {})
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

  const closed = (address: string) => {
    const left = (local.get(address) ?? 1) - 1
    if (left > 0) local.set(address, left)
    else local.delete(address)
    void mirror(address)
  }

  return {
    async reserve(address, cap) {
      // checked and counted in one turn: the handshakes waiting on this process see each other
      const position = (local.get(address) ?? 0) + 1
      if (position > cap) return false
      local.set(address, position)
      if (redis?.status !== 'ready') return true
      let admitted = true
      try {
        const answer = await redis.eval(
          RESERVE,
          1,
          processes,
          countsOf(''),
          mine,
          address,
          position,
          cap,
          ttlMs,
        )
        admitted = answer === 1
      } catch {
        // Redis not answering: this process's count alone, as without Redis
      }
      if (!admitted) closed(address)
      return admitted
    },
    closed,
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
