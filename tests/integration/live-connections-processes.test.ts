// The live connection cap per address across app processes (issue 15, found by the cluster test):
// two real server processes on one data folder (under integration-pg, one PostgreSQL database too)
// and one Redis, LIVE_CONNECTIONS_PER_ADDRESS=3. An address holds 3 connections in all, however it
// spreads them over the processes, even when many handshakes reach both at the same moment (the
// ones past 3 refused at the handshake, with the reason); one that leaves makes room on either; a
// process that stops takes its count with it (one killed with kill -9: once its counts lapse,
// connection-counts.ts COUNTS_TTL_MS).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StoreSettings, storeSettings, testConfig } from '../support/app.ts'
import {
  dropQueuePrefix,
  removeDir,
  type ServerProcess,
  sharedRedisUrl,
  startServerProcess,
} from '../support/faults.ts'
import { droppedSince, handshakeOf, open, rawConnections, sockets } from '../support/live-sockets.ts'
import { until } from '../support/sales.ts'

const TOO_MANY = 'Too many live connections from your address; close some tabs and try again.'

let a: ServerProcess
let b: ServerProcess
let dataDir: string
let queuePrefix: string
let store: StoreSettings | undefined
beforeAll(async () => {
  store = await storeSettings()
  const config = testConfig({ REDIS_URL: sharedRedisUrl })
  dataDir = config.dataDir
  queuePrefix = config.queuePrefix
  const env = {
    ...store.env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    QUEUE_PREFIX: queuePrefix,
    REDIS_URL: sharedRedisUrl,
    HOST: '127.0.0.1',
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    WORKERS: 'off',
    LIVE_CONNECTIONS_PER_ADDRESS: '3',
  }
  // one after the other: the first applies the migrations
  a = await startServerProcess(env)
  b = await startServerProcess(env)
}, 60_000)
afterAll(async () => {
  for (const socket of sockets) socket.disconnect()
  await a?.proc.stop()
  await b?.proc.stop()
  await dropQueuePrefix(sharedRedisUrl, queuePrefix)
  removeDir(dataDir)
  await store?.drop()
})

/** Waits until the address's 3 places are free again on both processes (each counts a leaving soon). */
async function roomForThree() {
  await until(async () => {
    const probes = await Promise.allSettled([open(a.url), open(b.url), open(a.url)])
    for (const probe of probes) if (probe.status === 'fulfilled') probe.value.disconnect()
    return probes.every((probe) => probe.status === 'fulfilled')
  }, 5000)
  // the probes' own leaving counted too
  await new Promise((r) => setTimeout(r, 300))
}

describe('live connections per address, over two app processes', () => {
  it('allow 3 in all however they are spread, refuse the 4th on either, and make room when one leaves', async () => {
    const first = await open(a.url)
    await open(b.url)
    await open(a.url)
    await expect(open(b.url)).rejects.toThrow(TOO_MANY)
    await expect(open(a.url)).rejects.toThrow(TOO_MANY)
    first.disconnect()
    // the room is made on the other process too, once the leaving is counted
    await until(async () => {
      try {
        await open(b.url)
        return true
      } catch {
        return false
      }
    }, 5000)
    await expect(open(a.url)).rejects.toThrow(TOO_MANY)
  })

  it('refuse with the reason, at the handshake, the ones past 3 of many arriving at once on both, and drop none let in', async () => {
    for (const socket of sockets) socket.disconnect()
    await roomForThree()
    const raws = await rawConnections([a.url, b.url, a.url, b.url, a.url, b.url, a.url, b.url])
    for (const socket of raws) socket.connect()
    await until(() => raws.every((socket) => handshakeOf(socket).connected || handshakeOf(socket).refused))
    await new Promise((r) => setTimeout(r, 500))
    const connected = raws.filter((socket) => handshakeOf(socket).connected)
    expect(connected).toHaveLength(3)
    for (const socket of raws.filter((s) => !handshakeOf(s).connected))
      expect(handshakeOf(socket).refused).toBe(TOO_MANY)
    expect(connected.filter(droppedSince)).toEqual([])
    for (const { raw } of raws) raw.terminate()
    await roomForThree()
  })

  it("stop counting a process's connections once it is gone", async () => {
    for (const socket of sockets) socket.disconnect()
    const onA = await Promise.all([open(a.url), open(a.url)])
    expect(onA.every((s) => s.connected)).toBe(true)
    await open(b.url)
    await expect(open(b.url)).rejects.toThrow(TOO_MANY)
    // A stops (its counts leave Redis with it): B has room for two more
    await a.proc.stop()
    await open(b.url)
    await open(b.url)
    await expect(open(b.url)).rejects.toThrow(TOO_MANY)
  })
})
