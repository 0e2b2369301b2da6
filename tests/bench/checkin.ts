// checkin (issue 16): the door under load, on the real server (SQLite, FULL) with real passes.
//   sync: 10,000 scans that 4 devices made offline, synced at once (each device its batches of 500
//     one after another, as the check-in screen sends them): the time until every one is answered,
//     and until the event's check-in summary counts them all (settled);
//   rate: devices online sending each scan as it is made, 200 scans a second, open loop: the p50
//     and p99 of one scan, counted from when it was due.
// The passes are bought through the API (hold, local gateway, confirm) and read from
// GET /ticket/{id}/passes, so their codes are the server's own signed codes. The door opens once
// the confirmation mails are out (each draws its passes as QR images, up to 50 a mail, in a worker
// thread: how long that took is reported), as it would hours after a sale. A warm-up sync of 1,000
// other passes runs first. Each scan admits a pass not scanned before.
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { wallClockIn } from '../support/clock.ts'
import { coreTimes, coreUse, rssMb, runLoad, startAppServer } from './lib/processes.ts'
import { seed } from './lib/seed.ts'

type Results = Record<string, number>
type SyncFigures = {
  scans: number
  devices: number
  batch: number
  answeredMs: number
  settledMs: number
  admittedAfter: number
  scansPerSecond: number
  requestP50Ms: number
  requestMaxMs: number
  results: Results
  statuses: Results
  failures: number
  cpuSeconds: number
}
type RateFigures = {
  scans: number
  plannedPerSecond: number
  achievedPerSecond: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  results: Results
  statuses: Results
  failures: number
  cpuSeconds: number
}

export type CheckinResult = {
  passes: number
  sync: SyncFigures & { cores: { server: number; load: number } }
  rate: RateFigures & { cores: { server: number; load: number } }
  serverRssMb: number
  /** from the last order paid to the last confirmation mail written, with its pass images */
  mailsMs: number
  orders: number
}

const PER_ORDER = 100
const WARM_UP = 1_000

async function call(url: string, token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  const reply = (await res.json()) as Record<string, unknown>
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(reply)}`)
  return reply
}

/** every pass of `orders` orders of PER_ORDER seats, bought by as many buyers: their codes */
async function buyPasses(url: string, tokens: string[], eventId: string): Promise<string[]> {
  const codes: string[][] = []
  const buyOne = async (token: string, i: number) => {
    const held = await call(url, token, 'POST', '/ticket/create', {
      eventId,
      ticketType: 'General Admission',
      quantity: PER_ORDER,
      amount: 1,
    })
    const paid = await call(url, token, 'POST', '/payments/local/pay', {
      orderId: held.orderId,
      outcome: 'success',
    })
    await call(url, token, 'POST', '/ticket/handlePaymentSuccess', {
      paymentId: paid.razorpay_payment_id,
      orderId: paid.razorpay_order_id,
      signature: paid.razorpay_signature,
      event: { source: 'bench' },
    })
    const passes = (await call(url, token, 'GET', `/ticket/${held.ticketId}/passes`)) as unknown as Array<{
      code: string
    }>
    codes[i] = passes.map((pass) => pass.code)
  }
  for (let i = 0; i < tokens.length; i += 10)
    await Promise.all(tokens.slice(i, i + 10).map((token, j) => buyOne(token, i + j)))
  return codes.flat()
}

export async function benchCheckin(quick = false): Promise<CheckinResult> {
  const syncScans = quick ? 2_000 : 10_000
  const rateSeconds = quick ? 5 : 20
  const rateScans = 200 * rateSeconds
  const passes = WARM_UP + syncScans + rateScans
  const buyers = Math.ceil(passes / PER_ORDER)
  // the event starts in six hours (in the server's default zone): its door is open
  const data = seed({
    buyers,
    events: 1,
    seats: passes + PER_ORDER,
    eventStart: wallClockIn('Asia/Kolkata', 360),
  })
  const eventId = data.events[0]?.eventId ?? ''
  const server = await startAppServer(data.dataDir, {
    QUEUE_PREFIX: `bench-checkin-${Date.now()}`,
    MAX_TICKETS_PER_ORDER: String(PER_ORDER),
    MAX_TICKETS_PER_ACCOUNT: String(PER_ORDER),
  })
  try {
    const codes = await buyPasses(server.url, data.tokens, eventId)
    if (codes.length < passes) throw new Error(`bought ${codes.length} passes, wanted ${passes}`)
    const paidAt = performance.now()
    const outbox = join(data.dataDir, 'outbox')
    const mailed = () => {
      try {
        return readdirSync(outbox).filter((name) => name.endsWith('.eml')).length
      } catch {
        return 0
      }
    }
    while (mailed() < buyers) {
      if (performance.now() - paidAt > 300_000)
        throw new Error(`${mailed()} of ${buyers} mails after 5 minutes`)
      await new Promise((r) => setTimeout(r, 100))
    }
    const mailsMs = Math.round(performance.now() - paidAt)
    const file = (name: string, list: string[]) => {
      const path = join(data.dataDir, name)
      writeFileSync(path, JSON.stringify(list))
      return path
    }
    const common = { url: server.url, eventId, token: data.organizerToken, devices: 4 }
    await runLoad<SyncFigures>('tests/bench/lib/scanner.ts', {
      ...common,
      mode: 'sync',
      codesFile: file('warm-up.json', codes.slice(0, WARM_UP)),
    })

    let before = coreTimes()
    const sync = await runLoad<SyncFigures>('tests/bench/lib/scanner.ts', {
      ...common,
      mode: 'sync',
      batch: 500,
      codesFile: file('sync.json', codes.slice(WARM_UP, WARM_UP + syncScans)),
    })
    const syncCores = coreUse(before, coreTimes())
    if (sync.admittedAfter !== syncScans || sync.results.admitted !== syncScans)
      throw new Error(`sync: ${JSON.stringify(sync)}`)

    before = coreTimes()
    const rate = await runLoad<RateFigures>('tests/bench/lib/scanner.ts', {
      ...common,
      mode: 'rate',
      rate: 200,
      seconds: rateSeconds,
      codesFile: file('rate.json', codes.slice(WARM_UP + syncScans)),
    })
    const rateCores = coreUse(before, coreTimes())
    if (rate.results.admitted !== rateScans) throw new Error(`rate: ${JSON.stringify(rate)}`)
    return {
      passes,
      sync: { ...sync, cores: syncCores },
      rate: { ...rate, cores: rateCores },
      serverRssMb: rssMb(server.pid),
      mailsMs,
      orders: buyers,
    }
  } finally {
    await server.stop()
    rmSync(data.dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchCheckin(process.argv.includes('--quick')), null, 2))
