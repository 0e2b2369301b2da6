// The live channel under a flood (issue 11): one socket sends 200,000 watch messages for random
// events; the server process's memory stays flat and other sockets keep hearing pushes. A memory
// figure needs a quiet machine, so this file runs on its own (the 'quiet' project), after the
// integration tests, not beside forty other files.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { LivePush } from '../../contracts/live.ts'
import { buildApp } from '../../server/root.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { testConfig } from '../support/app.ts'
import {
  dropQueuePrefix,
  removeDir,
  type ServerProcess,
  sharedRedisUrl,
  startServerProcess,
} from '../support/faults.ts'
import { INSPECT_OPTIONS, type Inspected, inspect } from '../support/inspector.ts'
import { open, sockets, watch } from '../support/live-sockets.ts'
import { approvedEvent, until } from '../support/sales.ts'

afterAll(() => {
  for (const s of sockets) s.disconnect()
})

/** The server process's resident memory, in MB: reported, not judged (see support/inspector.ts). */
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024

/**
 * Sends `count` watch messages for random events, each with an ack as a careful attacker would.
 * Every batch ends with one whose ack is awaited: the server has then handled the whole batch,
 * so the server, not the client's buffers, sets the pace.
 */
async function flood(socket: Socket, count: number, onBatch: (sent: number) => void = () => {}) {
  const batch = 2000
  const prefix = randomBytes(4).toString('hex')
  for (let sent = 0; sent < count; sent += batch) {
    for (let i = 1; i < batch; i++) socket.emit('watch', `event-${prefix}${sent + i}`, () => {})
    await socket.timeout(10_000).emitWithAck('watch', `event-${prefix}${sent}`)
    onBatch(sent + batch)
  }
}

describe('a flood of watch messages from one socket', () => {
  let server: ServerProcess
  let dataDir: string
  let queuePrefix: string
  let event: EventView
  let buyer: Session
  let inspector: Inspected

  beforeAll(async () => {
    // The accounts and the event are made in this process, on the data folder the server process
    // then opens: that process is the server alone, so its memory is the server's.
    const config = testConfig({ RATE_LIMITS: 'off', REDIS_URL: sharedRedisUrl })
    dataDir = config.dataDir
    queuePrefix = config.queuePrefix
    const app = await buildApp(config)
    const admin = await adminSession(app)
    const organizer = await organizerSession(app, 'Floodhost')
    event = await approvedEvent(app, organizer, admin, { title: 'Flood Night' })
    buyer = await signUp(app, 'Steadybuyer')
    await app.close()
    server = await startServerProcess({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      QUEUE_PREFIX: queuePrefix,
      REDIS_URL: sharedRedisUrl,
      HOST: '127.0.0.1',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: INSPECT_OPTIONS,
    })
    inspector = await inspect(server.proc)
  }, 60_000)
  afterAll(async () => {
    inspector?.close()
    await server?.proc.stop()
    await dropQueuePrefix(sharedRedisUrl, queuePrefix)
    removeDir(dataDir)
  })

  it('leaves the server holding within 20 MB of what it held, once its garbage is collected, answering requests and pushing availability all along', async () => {
    const watcher = await open(server.url)
    const heard: Array<LivePush & { heardAt: number }> = []
    watcher.on('fact', (push: LivePush) => heard.push({ ...push, heardAt: Date.now() }))
    expect(await watch(watcher, `event-${event._id}`)).toMatchObject({ ok: true, room: `event-${event._id}` })

    /** Holds a seat over HTTP: when it was asked, answered, and heard of by the watcher. */
    const holdAndHear = async () => {
      // a visitor hears the seats left, not whose order: the hold is the next one heard
      const holdsHeard = () => heard.filter((p) => p.type === 'TicketsHeld')
      const before = holdsHeard().length
      const asked = Date.now()
      const res = await fetch(`${server.url}/api/v1/ticket/create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${buyer.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ eventId: event._id, ticketType: 'General Admission', quantity: 1 }),
      })
      const answered = Date.now()
      expect(res.status).toBe(200)
      const push = () => holdsHeard()[before]
      await until(() => push() !== undefined, 5000)
      return { asked, answered, heard: push()?.heardAt ?? 0 }
    }

    const attacker = await open(server.url)
    // Lazy start-up work (parsers, JIT, the first prepared reads) is not growth: warm up first.
    await flood(attacker, 5000)
    const before = await inspector.heapAfterCollection()
    const rssBefore = rssOf(server.proc.pid)

    let during: ReturnType<typeof holdAndHear> | undefined
    const started = Date.now()
    await flood(attacker, 200_000, (sent) => {
      if (sent >= 50_000) during ??= holdAndHear()
    })
    const ended = Date.now()
    const duringFlood = await (during as ReturnType<typeof holdAndHear>)
    const after = await inspector.heapAfterCollection()
    const rssAfter = rssOf(server.proc.pid)
    const afterFlood = await holdAndHear()

    const mb = (from: number, to: number) =>
      `${from.toFixed(1)} → ${to.toFixed(1)} MB (${to >= from ? '+' : ''}${(to - from).toFixed(1)})`
    const ms = (hold: Awaited<ReturnType<typeof holdAndHear>>) =>
      `answered in ${hold.answered - hold.asked} ms, heard in ${hold.heard - hold.asked} ms`
    console.info(
      `flood: 200,000 watch messages in ${ended - started} ms; server heap after collection ` +
        `${mb(before.heapMB, after.heapMB)}, external ${mb(before.externalMB, after.externalMB)}, ` +
        `RSS ${mb(rssBefore, rssAfter)} (not collected); a hold ` +
        `during it ${ms(duringFlood)} (${ended - duringFlood.heard} ms before the flood ended); after it ${ms(afterFlood)}`,
    )
    expect(after.heapMB + after.externalMB - (before.heapMB + before.externalMB)).toBeLessThan(20)
    expect(duringFlood.heard).toBeLessThan(ended)
    expect(duringFlood.heard - duringFlood.asked).toBeLessThan(2000)
    expect(attacker.connected).toBe(true)
  }, 60_000)
})
