// The door's queue: scans decided at once and kept, sent in batches when possible, tried again
// with a growing wait (the very same scans, so the server can tell them again), the server's
// answers put in place of the door's own, and double entries found; with the device's storage and
// the network replaced by stand-ins (the pure parts: scan-log.ts; the door: door.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Scan, ScanReply } from '../../web/src/api/checkin.ts'
import { ApiError } from '../../web/src/api/client.ts'
import type { Decision } from '../../web/src/screens/checkin/decide.ts'
import { createDoor } from '../../web/src/screens/checkin/door.ts'
import { memoryStore } from '../../web/src/screens/checkin/door-store.ts'
import { repeatFilter } from '../../web/src/screens/checkin/repeats.ts'
import {
  admittedPasses,
  answered,
  isDoubleEntry,
  isLateRefusal,
  nextBatch,
  resultOf,
  retryable,
  retryDelay,
  type ScanRecord,
  waiting,
  wasLetIn,
} from '../../web/src/screens/checkin/scan-log.ts'
import { makePassCode, manifestOf, passKeys } from './checkin-support.ts'

const local = (changes: Partial<Decision> = {}): Decision => ({
  result: 'admitted',
  passId: 'ord_a.1.0',
  admission: 1,
  holder: 'asha',
  ticketType: 'VIP',
  admittedAt: '2031-01-01T18:00:00.000Z',
  ...changes,
})

/** lets the door's pending work (promises, not timers) run */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
}

const record = (id: string, scannedAt: string, changes: Partial<ScanRecord> = {}): ScanRecord => ({
  id,
  eventId: 'evt_1',
  code: `code-${id}`,
  scannedAt,
  device: 'door-1',
  local: local(),
  server: null,
  ...changes,
})

const reply = (code: string, result: ScanReply['result'], admittedAt: string | null = null): ScanReply => ({
  code,
  result,
  admittedAt,
  device: 'door-1',
  ticketType: 'VIP',
  holder: 'asha',
})

describe('the scan log', () => {
  it('sends the oldest waiting scans first, in batches, and never a code the server would refuse', () => {
    const records = [
      record('c', '2031-01-01T18:00:03.000Z'),
      record('a', '2031-01-01T18:00:01.000Z'),
      record('s', '2031-01-01T18:00:00.000Z', { server: reply('code-s', 'admitted') }),
      record('b', '2031-01-01T18:00:02.000Z'),
      record('long', '2031-01-01T17:00:00.000Z', { code: 'x'.repeat(1001) }),
      record('empty', '2031-01-01T17:00:00.000Z', { code: '' }),
    ]
    expect(nextBatch(records, 2).map((one) => one.id)).toEqual(['a', 'b'])
    expect(nextBatch(records, 500).map((one) => one.id)).toEqual(['a', 'b', 'c'])
    expect(records.filter(waiting)).toHaveLength(3)
  })

  it("puts the server's answers in place of the door's, in the order sent", () => {
    const sent = [record('a', '2031-01-01T18:00:01.000Z'), record('b', '2031-01-01T18:00:02.000Z')]
    const done = answered(sent, [reply('code-a', 'admitted'), reply('code-b', 'void')])
    expect(done.map(resultOf)).toEqual(['admitted', 'void'])
    expect(() => answered(sent, [reply('code-a', 'admitted')])).toThrow()
    expect(() => answered(sent, [reply('code-b', 'void'), reply('code-a', 'admitted')])).toThrow()
  })

  it('finds a double entry: admitted here, already admitted says the server', () => {
    const double = record('a', 't1', {
      server: reply('code-a', 'already-admitted', '2031-01-01T17:59:00.000Z'),
    })
    const refusedHereToo = record('b', 't2', {
      local: local({ result: 'already-admitted' }),
      server: reply('code-b', 'already-admitted'),
    })
    const confirmed = record('c', 't3', { server: reply('code-c', 'admitted') })
    const voidedSince = record('d', 't4', { server: reply('code-d', 'void') })
    const refusedHereUnsent = record('e', 't5', { local: local({ result: 'already-admitted' }) })
    const refusedHereAdmittedSays = record('f', 't6', {
      local: local({ result: 'already-admitted' }),
      server: reply('code-f', 'void'),
    })
    // every second scan of a pass is a double entry, as the organizer's page lists it: the ones
    // this device turned away too, sent or not yet; the server's word stands once it answered
    expect(
      [double, refusedHereToo, confirmed, voidedSince, refusedHereUnsent, refusedHereAdmittedSays].map(
        isDoubleEntry,
      ),
    ).toEqual([true, true, false, false, true, false])
    expect([double, refusedHereToo, refusedHereUnsent].map(wasLetIn)).toEqual([true, false, false])
    expect([double, refusedHereToo, confirmed, voidedSince].map(isLateRefusal)).toEqual([
      false,
      false,
      false,
      true,
    ])
  })

  it('knows the passes admitted, with the earliest admission, and not the ones refused since', () => {
    const records = [
      record('a', '2031-01-01T18:00:01.000Z'),
      record('b', '2031-01-01T18:00:05.000Z', {
        local: local({ passId: 'ord_b.1.0', admittedAt: '2031-01-01T18:00:05.000Z' }),
        server: reply('code-b', 'already-admitted', '2031-01-01T17:50:00.000Z'),
      }),
      record('c', '2031-01-01T18:00:06.000Z', {
        local: local({ passId: 'ord_c.1.0' }),
        server: reply('code-c', 'void'),
      }),
      record('d', '2031-01-01T18:00:07.000Z', { local: local({ result: 'invalid', passId: null }) }),
    ]
    expect(admittedPasses(records)).toEqual(
      new Map([
        ['ord_a.1.0', '2031-01-01T18:00:00.000Z'],
        ['ord_b.1.0', '2031-01-01T17:50:00.000Z'],
      ]),
    )
  })

  it('waits longer after each failure, up to a minute, spread at random', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, () => 1))).toEqual([1000, 2000, 4000, 8000])
    expect(retryDelay(1, () => 0)).toBe(500)
    expect(retryDelay(20, () => 1)).toBe(60_000)
    expect([0, 408, 429, 500, 503].every(retryable)).toBe(true)
    expect([400, 401, 403, 404].some(retryable)).toBe(false)
  })
})

describe('the camera reading one pass again and again', () => {
  it('scans it once while it stays in sight, and again once it was out of sight', () => {
    const repeats = repeatFilter(2500)
    expect(repeats.isNew('A', 0)).toBe(true)
    expect(repeats.isNew('A', 100)).toBe(false)
    expect(repeats.isNew('B', 150)).toBe(true)
    expect(repeats.isNew('A', 2000)).toBe(false)
    expect(repeats.isNew('A', 4000)).toBe(false)
    expect(repeats.isNew('A', 7000)).toBe(true)
  })
})

describe('a door', () => {
  const keys = passKeys()
  const pass = (t: string, a = 1, v = 0) => makePassCode({ e: 'evt_1', t, a, v }, keys.privateKey)
  const manifest = manifestOf(keys.publicKey, [
    ['ord_a.1.0', 0, null, 1, 'asha'],
    ['ord_b.1.0', 0, null, 0, 'ravi'],
  ])

  let clock = Date.parse('2031-01-01T18:00:00.000Z')
  let ids = 0
  const sent: Scan[][] = []
  let answer: (scans: Scan[]) => Promise<ScanReply[]>
  const admitAll = async (scans: Scan[]) =>
    scans.map((scan) => ({
      ...reply(scan.code, 'admitted', new Date(clock).toISOString()),
      device: scan.device,
    }))

  const makeDoor = (store = memoryStore(), onSynced = () => {}, subtle?: SubtleCrypto) =>
    createDoor({
      ...(subtle ? { subtle } : {}),
      eventId: 'evt_1',
      device: 'door-1',
      store,
      send: (_, scans) => {
        sent.push(scans)
        return answer(scans)
      },
      statusOf: (error) => (error instanceof ApiError ? error.status : 0),
      messageOf: (error) => (error instanceof Error ? error.message : String(error)),
      onSynced,
      now: () => {
        clock += 1000
        return new Date(clock)
      },
      newId: () => `scan-${++ids}`,
      random: () => 1,
    })

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    sent.length = 0
    answer = admitAll
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("decides at once, keeps the scan, sends it, and takes the server's answer", async () => {
    const store = memoryStore()
    const synced = vi.fn()
    const door = makeDoor(store, synced)
    await door.takeManifest(manifest)
    const scanned = await door.scan(pass('ord_a'))
    expect(scanned.local).toMatchObject({ result: 'admitted', holder: 'asha', ticketType: 'VIP' })
    expect(scanned.server).toBeNull()
    expect(await store.scans('evt_1')).toHaveLength(1)
    await vi.waitFor(() => expect(door.snapshot().records[0]?.server?.result).toBe('admitted'))
    expect(sent).toEqual([[{ code: pass('ord_a'), scannedAt: scanned.scannedAt, device: 'door-1' }]])
    expect((await store.scans('evt_1'))[0]?.server?.result).toBe('admitted')
    expect(synced).toHaveBeenCalledTimes(1)
    expect(door.snapshot().sync.kind).toBe('idle')
    door.stop()
  })

  it('says already admitted to the same pass scanned again on this device', async () => {
    const door = makeDoor()
    await door.takeManifest(manifest)
    const [first, second] = await Promise.all([door.scan(pass('ord_a')), door.scan(pass('ord_a'))])
    expect([first?.local.result, second?.local.result]).toEqual(['admitted', 'already-admitted'])
    door.stop()
  })

  it('decides scans in the order made, however long each signature takes to check', async () => {
    // the first scan's signature is checked slowly: it must still be the one let in
    let checks = 0
    const real = globalThis.crypto.subtle
    const subtle = {
      importKey: real.importKey.bind(real),
      verify: async (...args: Parameters<SubtleCrypto['verify']>) => {
        // (the door's timers are fake here; setImmediate is not)
        if (++checks === 1) for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
        return real.verify(...args)
      },
    } as SubtleCrypto
    const door = makeDoor(memoryStore(), () => {}, subtle)
    await door.takeManifest(manifest)
    const first = door.scan(pass('ord_a'))
    const second = door.scan(pass('ord_a'))
    expect([(await first).local.result, (await second).local.result]).toEqual([
      'admitted',
      'already-admitted',
    ])
    expect(door.snapshot().records.map((record) => record.local.result)).toEqual([
      'admitted',
      'already-admitted',
    ])
    door.stop()
  })

  it('queues while offline and tries the very same scans again, waiting longer each time', async () => {
    answer = () => Promise.reject(new ApiError('The server could not be reached.', 0))
    const door = makeDoor()
    await door.takeManifest(manifest)
    await door.scan(pass('ord_a'))
    await settle()
    expect(door.snapshot().sync).toMatchObject({
      kind: 'retrying',
      message: 'The server could not be reached.',
    })
    expect(sent).toHaveLength(1)
    // 1 s after the first failure, 2 s after the second, then 4 s
    for (const [wait, tries] of [
      [1000, 2],
      [2000, 3],
      [4000, 4],
    ] as const) {
      await vi.advanceTimersByTimeAsync(wait - 1)
      await settle()
      expect(sent).toHaveLength(tries - 1)
      if (tries === 4) answer = admitAll
      await vi.advanceTimersByTimeAsync(1)
      await settle()
      expect(sent).toHaveLength(tries)
    }
    expect(door.snapshot().records.map(resultOf)).toEqual(['admitted'])
    expect(door.snapshot().records[0]?.server).not.toBeNull()
    expect(door.snapshot().sync.kind).toBe('idle')
    // every try carried the very same scan: the server answers it once
    for (const batch of sent) expect(batch).toEqual(sent[0])
    door.stop()
  })

  it('lists a pass it admitted offline that another door admitted first as a double entry', async () => {
    answer = async (scans) =>
      scans.map((scan) => reply(scan.code, 'already-admitted', '2031-01-01T17:30:00.000Z'))
    const door = makeDoor()
    await door.takeManifest(manifest)
    const scanned = await door.scan(pass('ord_a'))
    expect(scanned.local.result).toBe('admitted')
    await vi.waitFor(() => expect(door.snapshot().records.filter(isDoubleEntry)).toHaveLength(1))
    expect(door.snapshot().admitted.get('ord_a.1.0')).toBe('2031-01-01T17:30:00.000Z')
    door.stop()
  })

  it('stops sending on a refusal (no access) and shows it; the next scan asks again', async () => {
    answer = () => Promise.reject(new ApiError('You may not check in at this event.', 403))
    const door = makeDoor()
    await door.takeManifest(manifest)
    await door.scan(pass('ord_a'))
    await vi.waitFor(() =>
      expect(door.snapshot().sync).toEqual({
        kind: 'refused',
        message: 'You may not check in at this event.',
        status: 403,
      }),
    )
    await vi.advanceTimersByTimeAsync(120_000)
    expect(sent).toHaveLength(1)
    answer = admitAll
    await door.scan(pass('ord_b'))
    await vi.waitFor(() => expect(door.snapshot().records.every((one) => one.server !== null)).toBe(true))
    expect(sent.at(-1)).toHaveLength(2)
    door.stop()
  })

  it('opens again from what the device kept: the manifest, the queue, the passes it admitted', async () => {
    answer = () => Promise.reject(new ApiError('The server could not be reached.', 0))
    const store = memoryStore()
    const before = makeDoor(store)
    await before.takeManifest(manifest)
    await before.scan(pass('ord_a'))
    before.stop()

    const after = makeDoor(store)
    await after.load()
    expect(after.snapshot().list?.title).toBe('Jazz Night')
    expect(after.snapshot().records.filter(waiting)).toHaveLength(1)
    expect((await after.scan(pass('ord_a'))).local.result).toBe('already-admitted')
    after.stop()
  })

  it('decides with no manifest: what it admitted itself, and "unchecked" for the rest', async () => {
    answer = () => Promise.reject(new ApiError('The server could not be reached.', 0))
    const door = makeDoor()
    expect((await door.scan(pass('ord_a'))).local.result).toBe('unchecked')
    expect((await door.scan('hello')).local.result).toBe('invalid')
    door.stop()
  })

  it('scans by the server’s clock when the device’s is off, as the manifest it fetched showed', async () => {
    // the device's clock is three days ahead of the server's; the door opens at 17:00 server time
    const ahead = 3 * 24 * 3_600_000
    const serverNow = clock
    clock += ahead
    const store = memoryStore()
    const door = makeDoor(store)
    await door.takeManifest(
      { ...manifest, generatedAt: new Date(serverNow).toISOString(), opensAt: '2031-01-01T17:00:00.000Z' },
      clock,
    )
    expect(door.snapshot().clockOffset).toBe(-ahead)
    const early = await door.scan(pass('ord_a'))
    expect(Math.abs(Date.parse(early.scannedAt) - serverNow)).toBeLessThan(60_000)
    expect(early.local.result).toBe('admitted')
    door.stop()
    // opened again offline, it still knows
    const again = makeDoor(store)
    await again.load()
    expect(again.snapshot().clockOffset).toBe(-ahead)
    again.stop()
    clock -= ahead
  })

  it('says too early offline before the door opens; a device clock off by a few seconds is taken as it is', async () => {
    const door = makeDoor()
    await door.takeManifest(
      { ...manifest, generatedAt: new Date(clock + 5000).toISOString(), opensAt: '2031-01-02T18:00:00.000Z' },
      clock,
    )
    expect(door.snapshot().clockOffset).toBe(0)
    expect((await door.scan(pass('ord_a'))).local.result).toBe('too-early')
    door.stop()
  })

  it('keeps an older manifest from replacing a newer one', async () => {
    const door = makeDoor()
    await door.takeManifest({ ...manifest, position: 200, title: 'Newer' })
    await door.takeManifest({ ...manifest, position: 150, title: 'Older' })
    expect(door.snapshot().list?.title).toBe('Newer')
    door.stop()
  })
})
