// The cluster's waiting room (issue 41): an event whose sale opens a few seconds ahead behind a room
// admitting at a set rate. Signed-in buyers, each with a socket on one of the app processes, join
// the line through the processes in turn, most in the pre-queue before the opening and the rest
// after it, some twice through another process; those admitted buy through the normal purchase
// path (hold, pay, callback). Once admissions are under way one app process (every app process
// runs the admitter: there is no other process to kill for it) is killed with kill -9 and started
// again on its port; the room runs on until the event sells out and closes (while seats are held by
// checkouts the kill cut, it stays on to the run's end: those still waiting are owed the seats that
// come back). Then the guarantees
// are judged from the ledger and from what the buyers heard and asked (cluster-room-checks.ts).
import type { Socket } from 'socket.io-client'
import { QUEUE_MESSAGE } from '../../contracts/live.ts'
import {
  ADMISSION_NEEDED,
  NOT_ON_SALE_YET,
  type QueuePlace,
  type QueuePush,
  type QueueStats,
} from '../../contracts/queue.ts'
import { NOT_ENOUGH_TICKETS } from '../../server/booking/decide.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'
import type { EventSeed } from '../bench/lib/fixtures.ts'
import {
  type Call,
  type Op,
  pool,
  type Random,
  type ServerProcess,
  sleep,
  waitFor,
} from '../support/faults.ts'
import { open } from '../support/live-sockets.ts'
import { checkRoom, type LineBuyer, type RoomChecks, type Told } from './cluster-room-checks.ts'

export type RoomPlan = {
  /** buyers in line: the first `early` of them join before the opening (the pre-queue), the last
   * `afterRestart` once the killed process answers again (through it), the others after the opening */
  buyers: number
  early: number
  afterRestart: number
  /** the room's event's General Admission seats (its VIP has a tenth as many): fewer than the
   * buyers, so that it sells out and its room closes */
  seats: number
  admitPerMinute: number
  /** the on-sale time, set this far ahead once the pre-queue has joined */
  opensInMs: number
  /** an app process is killed once this many buyers have heard they are admitted */
  killAfterAdmitted: number
}

export type RoomParts = {
  plan: RoomPlan
  event: EventSeed
  /** the app processes (the killed one's entry is replaced by its restart), which are up */
  apps: ServerProcess[]
  alive: boolean[]
  /** a recording client of each app process */
  clients: Call[]
  /** a recording client of any living app process */
  routed: Call
  /** pays an acknowledged hold at the gateway and reports it (the checkout's callback) */
  pay: (hold: Op) => Promise<Op>
  tokens: string[]
  buyerIds: string[]
  organizerToken: string
  /** starts an app process again on its port */
  restart: (port: number) => Promise<ServerProcess>
  facts: () => Promise<StoredFact[]>
  random: Random
  log: (line: string) => void
}

export type RoomResult = {
  buyers: number
  /** in line from before the opening, and from after it (of them, joined through the killed
   * process once it was back); joined a second time through another process */
  early: number
  late: number
  afterRestart: number
  joinedTwice: number
  /** the event's seats (General Admission and VIP) */
  capacity: number
  admitPerMinute: number
  /** lines admitted, in how many QueueAdmitted facts, and as people a minute from the opening */
  admitted: number
  admissions: number
  measuredPerMinute: number
  /** admitted buyers who were answered a ticket; refused because the seats had gone; whose
   * checkout, payment or callback the kill cut; told the room closed */
  bought: number
  soldOut: number
  cut: number
  toldClosed: number
  closed: boolean
  killedApp: {
    index: number
    /** buyers told they were admitted when it died */
    afterAdmitted: number
    /** from the kill until it answered again */
    downMs: number
    /** lines admitted while it was down, and after it was back */
    admittedWhileDown: number
    admittedAfter: number
  }
  /** places heard on sockets, answers read, sockets that had to connect again */
  heard: number
  asked: number
  reconnects: number
  /** checkouts sent without an admission while the room was on, and how many were refused */
  unadmitted: { sent: number; refused: number }
  seconds: number
  checks: RoomChecks
}

/** how often, about, a buyer in line asks for its place (its socket tells it sooner) */
const ASK_EVERY_MS = 1500

type Buyer = LineBuyer & {
  admitted: boolean
  closed: boolean
  /** bought; refused as sold out; told the room closed; refused for want of an admission; a
   * request cut by the kill; answered otherwise */
  outcome: 'bought' | 'sold out' | 'closed' | 'refused' | 'cut' | 'failed' | null
  /** the checkout, payment or callback that went wrong */
  failure?: Op
}

export async function waitingRoomPhase(p: RoomParts): Promise<RoomResult> {
  const started = performance.now()
  const { plan, event, apps, alive, clients, routed, log } = p
  const { eventId } = event
  const processes = apps.length
  const buyers: Buyer[] = Array.from({ length: plan.buyers }, (_, index) => ({
    index,
    accountId: p.buyerIds[index] as string,
    early: index < plan.early,
    joins: [],
    heard: [],
    asked: [],
    final: [],
    checkouts: [],
    admitted: false,
    closed: false,
    outcome: null,
  }))
  /** every fourth buyer joins twice: half of them at once through two processes, half afterwards */
  const twice = (b: Buyer) => (b.index % 4 === 3 ? (b.index % 8 === 3 ? 'at once' : 'afterwards') : null)
  /** a signed-in buyer who never joins */
  const outsider = plan.buyers
  const sockets: Socket[] = []
  let over = false
  let reconnects = 0
  /** sockets that could not connect again after their process died */
  const unconnected: string[] = []

  const told = (b: Buyer, place: QueuePlace) => {
    if (place.state === 'admitted') b.admitted = true
    if (place.state === 'closed') b.closed = true
  }
  const answered = (b: Buyer, op: Op) => {
    if (op.status !== 200) return
    const place = op.answer as QueuePlace
    b.asked.push({ place, at: op.startedAt + op.ms, from: op.startedAt })
    told(b, place)
  }
  const living = () => apps.map((_, i) => i).filter((i) => alive[i])

  /** the buyer's socket on that process (or any living one), heard from until the run is over;
   * when its process dies it connects again to another, as the web client does */
  const connect = async (b: Buyer, at?: number): Promise<void> => {
    for (let attempt = 0; !over; attempt++) {
      const index = at ?? p.random.pick(living())
      try {
        const socket = await open((apps[index] as ServerProcess).url, p.tokens[b.index])
        sockets.push(socket)
        const heard: Told[] = []
        b.heard.push(heard)
        socket.on(QUEUE_MESSAGE, ({ eventId: of, ...place }: QueuePush) => {
          if (of !== eventId) return
          heard.push({ place, at: Date.now(), from: Number.NEGATIVE_INFINITY })
          told(b, place)
        })
        socket.on('disconnect', () => {
          if (over) return
          reconnects++
          connect(b).catch((error: Error) => unconnected.push(error.message))
        })
        return
      } catch (error) {
        if (attempt >= 50) throw new Error(`buyer ${b.index} could not connect: ${(error as Error).message}`)
        await sleep(200)
      }
    }
  }

  const join = async (b: Buyer, at: number) => {
    const op = await (clients[at % processes] as Call)({
      vu: b.index,
      op: 'queue-join',
      method: 'POST',
      path: `/event/${eventId}/queue`,
      buyer: b.index,
    })
    b.joins.push(op)
    answered(b, op)
  }
  /** each buyer's first join through its own process (or the one given); a second through the
   * next, at once or afterwards */
  const joinAll = async (group: Buyer[], at?: number) => {
    const own = (b: Buyer) => at ?? b.index
    await pool(group, 16, async (b) => {
      await Promise.all([join(b, own(b)), ...(twice(b) === 'at once' ? [join(b, own(b) + 1)] : [])])
    })
    await pool(
      group.filter((b) => twice(b) === 'afterwards'),
      16,
      (b) => join(b, own(b) + 1),
    )
  }

  const checkout = (buyer: number, ticketType: string, call: Call = routed) =>
    call({
      vu: buyer,
      op: 'hold',
      method: 'POST',
      path: '/ticket/create',
      buyer,
      body: { eventId, ticketType, quantity: 1 },
    })

  /**
   * General Admission, else VIP once it is gone; a checkout the kill cut (no answer) is sent again,
   * to another process. What became of it: a payment or its callback cut leaves it `cut` (the
   * callback is sent again with the others after the fault phase).
   */
  const buy = async (b: Buyer): Promise<Exclude<Buyer['outcome'], null>> => {
    for (const ticketType of ['General Admission', 'VIP']) {
      let hold: Op | null = null
      for (let attempt = 0; attempt < 4 && (hold === null || hold.status === null); attempt++) {
        if (attempt > 0) await sleep(200)
        hold = await checkout(b.index, ticketType)
        b.checkouts.push(hold)
      }
      if (!hold || hold.status === null) return 'cut'
      if (hold.status === 409 && (hold.answer as { message?: string }).message === NOT_ENOUGH_TICKETS)
        continue
      if (hold.status === 403) return 'refused'
      if (hold.status !== 200) {
        b.failure = hold
        return 'failed'
      }
      const confirm = await p.pay(hold)
      if (confirm.status === null) return 'cut'
      const issued =
        confirm.op === 'confirm' &&
        (confirm.status === 202 || (confirm.answer as { ticket?: unknown } | undefined)?.ticket !== undefined)
      if (!issued) b.failure = confirm
      return issued ? 'bought' : 'failed'
    }
    return 'sold out'
  }

  /** a buyer in line: asks for its place now and then until admitted (or the room closes), then buys */
  const shop = async (b: Buyer) => {
    let askAt = Date.now() + p.random.int(0, ASK_EVERY_MS)
    while (!b.admitted && !b.closed && !over) {
      if (Date.now() < askAt) {
        await sleep(50)
        continue
      }
      answered(
        b,
        await routed({
          vu: b.index,
          op: 'queue-place',
          method: 'GET',
          path: `/event/${eventId}/queue/me`,
          buyer: b.index,
        }),
      )
      askAt = Date.now() + p.random.int(ASK_EVERY_MS / 2, (ASK_EVERY_MS * 3) / 2)
    }
    if (b.admitted && !over) b.outcome = await buy(b)
    else if (b.closed) b.outcome = 'closed'
  }

  const organizer = async (method: 'GET' | 'PUT', path: string, body?: unknown) => {
    const at = p.random.pick(living())
    const res = await fetch(`${(apps[at] as ServerProcess).url}/api/v1/event/${eventId}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${p.organizerToken}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    })
    const answer = (await res.json()) as unknown
    if (res.status !== 200)
      throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(answer)}`)
    return answer
  }
  const onSale = (opensAt: number) =>
    organizer('PUT', '/onsale', {
      opensAt: new Date(opensAt).toISOString(),
      waitingRoom: true,
      admitPerMinute: plan.admitPerMinute,
    })

  try {
    await Promise.all(buyers.map((b) => connect(b, b.index % processes)))
    // The sale an hour ahead while the pre-queue joins (it may move until the opening): however
    // slow the joins, each is before it.
    await onSale(Date.now() + 3_600_000)
    const unadmitted: Array<{ what: string; op: Op; status: number; message: string }> = []
    unadmitted.push({
      what: 'a checkout before the sale opens',
      op: await checkout(outsider, 'General Admission'),
      status: 403,
      message: NOT_ON_SALE_YET,
    })
    const early = buyers.filter((b) => b.early)
    const late = buyers.filter((b) => !b.early && b.index < plan.buyers - plan.afterRestart)
    const afterRestart = buyers.slice(plan.buyers - plan.afterRestart)
    await joinAll(early)
    const shopping = early.map(shop)
    const opensAt = Date.now() + plan.opensInMs
    await onSale(opensAt)
    log(`room: ${early.length} buyers in the pre-queue; the sale opens in ${plan.opensInMs} ms`)
    await sleep(Math.max(0, opensAt - Date.now()) + 200)
    await joinAll(late)
    shopping.push(...late.map(shop))

    // The last in line, far from its turn, and a buyer who never joined try to check out.
    const last = late
      .map((b) => ({ b, position: (b.joins[0]?.answer as QueuePlace | undefined)?.position ?? 0 }))
      .sort((x, y) => y.position - x.position)[0]
    if (last)
      unadmitted.push({
        what: `waiting at ${last.position}: buyer ${last.b.index}'s checkout`,
        op: await checkout(last.b.index, 'General Admission'),
        status: 403,
        message: ADMISSION_NEEDED,
      })
    unadmitted.push({
      what: 'a checkout by a buyer not in line',
      op: await checkout(outsider, 'General Admission'),
      status: 403,
      message: ADMISSION_NEEDED,
    })

    // Under the admissions and the purchases, one app process dies and is started again.
    const admittedCount = () => buyers.filter((b) => b.admitted).length
    const victim = p.random.int(0, processes - 1)
    const killed = { at: 0, back: 0, afterAdmitted: 0 }
    // Until the event sells out (or everyone is admitted): the admissions' time at the set rate,
    // twice over, and a margin for a loaded machine.
    const deadline = opensAt + ((plan.buyers * 60_000) / plan.admitPerMinute) * 2 + 60_000
    let killFailed: string | null = null
    const killing = (async () => {
      await waitFor(
        () => admittedCount() >= plan.killAfterAdmitted || over,
        deadline - Date.now(),
        'the first admissions',
      )
      if (over) return
      killed.afterAdmitted = admittedCount()
      alive[victim] = false
      killed.at = Date.now()
      const dead = apps[victim] as ServerProcess
      await dead.proc.kill9()
      apps[victim] = await p.restart(dead.port)
      killed.back = Date.now()
      alive[victim] = true
      log(
        `room: app ${victim} killed once ${killed.afterAdmitted} buyers were admitted; answering again after ${killed.back - killed.at} ms`,
      )
    })().catch((error: Error) => {
      killFailed = error.message.split('\n')[0] ?? 'failed'
    })
    // The last buyers join through the process started again: its decisions on the room, and what
    // it tells them, whether the room is still admitting or has closed meanwhile.
    let rejoined = false
    const rejoining = killing
      .then(async () => {
        if (!killed.back) return
        await joinAll(afterRestart, victim)
        shopping.push(...afterRestart.map(shop))
      })
      .finally(() => {
        rejoined = true
      })
    const waiting = () => !rejoined || buyers.some((b) => b.joins.length > 0 && b.outcome === null)
    while (Date.now() < deadline && waiting()) await sleep(100)
    over = true
    await rejoining
    await Promise.all(shopping)

    // Everyone's place at the end, from every process (the restarted one too).
    await pool(
      buyers.filter((b) => b.joins.length > 0),
      16,
      async (b) => {
        for (const call of clients) {
          const op = await call({
            vu: b.index,
            op: 'queue-place',
            method: 'GET',
            path: `/event/${eventId}/queue/me`,
            buyer: b.index,
          })
          answered(b, op)
          b.final.push(op.status === 200 ? (op.answer as QueuePlace) : null)
        }
      },
    )
    const stats = (await organizer('GET', '/queue').catch(() => null)) as QueueStats | null
    const facts = await p.facts()
    const { checks, room, heldOut } = checkRoom({
      facts,
      event,
      buyers,
      admitPerMinute: plan.admitPerMinute,
      unadmitted,
      stats,
    })

    const admitted = room.admissions.at(-1)?.through ?? 0
    const linesBy = (ms: number) =>
      room.admissions.filter((a) => Date.parse(a.at) <= ms).reduce((n, a) => n + a.through - a.from + 1, 0)
    const first = room.opened ? Date.parse(room.opened.at) : 0
    const lastAt = Date.parse(room.admissions.at(-1)?.at ?? '') || first
    const outcomes = (outcome: Buyer['outcome']) => buyers.filter((b) => b.outcome === outcome).length
    const result: RoomResult = {
      buyers: plan.buyers,
      early: room.earlyJoins,
      late: room.lineCount - room.earlyJoins,
      afterRestart: afterRestart.filter((b) => room.lines.has(b.accountId)).length,
      joinedTwice: buyers.filter((b) => b.joins.length > 1).length,
      capacity: event.ticketTypes.reduce((n, t) => n + t.quantity, 0),
      admitPerMinute: plan.admitPerMinute,
      admitted,
      admissions: room.admissions.length,
      measuredPerMinute: lastAt > first ? Math.round((admitted * 60_000) / (lastAt - first)) : 0,
      bought: outcomes('bought'),
      soldOut: outcomes('sold out'),
      cut: outcomes('cut'),
      toldClosed: outcomes('closed'),
      closed: room.closed !== null,
      killedApp: {
        index: victim,
        afterAdmitted: killed.afterAdmitted,
        downMs: killed.back - killed.at,
        admittedWhileDown: killed.at ? linesBy(killed.back) - linesBy(killed.at) : 0,
        admittedAfter: killed.back ? admitted - linesBy(killed.back) : 0,
      },
      heard: buyers.reduce((n, b) => n + b.heard.flat().length, 0),
      asked: buyers.reduce((n, b) => n + b.asked.length, 0),
      reconnects,
      unadmitted: {
        sent: unadmitted.length,
        refused: unadmitted.filter((u) => u.op.status === u.status).length,
      },
      seconds: Math.round((performance.now() - started) / 100) / 10,
      checks,
    }
    if (killFailed) checks.ranOn.push(`the kill and restart: ${killFailed}`)
    else if (!killed.at) checks.ranOn.push('the room was over before an app process could be killed under it')
    for (const message of unconnected) checks.ranOn.push(message)
    for (const b of buyers) {
      // still waiting at the end: owed a seat that comes back, while every seat not sold is held
      if (b.outcome === null && !(heldOut && b.joins.length > 0))
        checks.ranOn.push(
          `buyer ${b.index} ${b.joins.length ? 'was still waiting' : 'never joined'} at the end`,
        )
      if (b.failure)
        checks.ranOn.push(
          `buyer ${b.index}: ${b.failure.method} ${b.failure.path} answered ${b.failure.status}: ${JSON.stringify(b.failure.answer)}`,
        )
    }
    return result
  } finally {
    over = true
    for (const socket of sockets) socket.disconnect()
  }
}
