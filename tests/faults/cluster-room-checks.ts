// The waiting room's guarantees (issue 41), judged after the cluster's room has run
// (cluster-room.ts): from the ledger's facts (QueueJoined, QueueOpened, QueueAdmitted, QueueClosed
// and the event's orders) and from what each buyer heard on its sockets and was answered over HTTP.
// Pure: every problem found is one line of the list it breaks.
import type { QueuePlace } from '../../contracts/queue.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'
import type { QueueFact, QueueJoined } from '../../server/queue/facts.ts'
import type { EventSeed } from '../bench/lib/fixtures.ts'
import { foldOrders, type Op } from '../support/faults.ts'

/** One place a buyer was told: when it arrived, and the earliest its reading can have been taken
 * (an answer's request sent; a pushed message's is not known: -Infinity). */
export type Told = { place: QueuePlace; at: number; from: number }

/** A buyer as the room's phase saw it. */
export type LineBuyer = {
  index: number
  accountId: string
  /** joined before the opening (the pre-queue) */
  early: boolean
  /** its joins' answers (two when it joined twice) */
  joins: Op[]
  /** what each of its socket connections heard, in order (a killed process's connection is
   * followed by one to another process) */
  heard: Told[][]
  /** its answers: joins and reads of GET /event/{id}/queue/me, each with its request's time */
  asked: Told[]
  /** its answers at the end, one from each app process */
  final: Array<QueuePlace | null>
  /** its checkouts (POST /ticket/create) */
  checkouts: Op[]
}

export type RoomChecks = {
  /** one QueueJoined per account in line, the pre-queue before the opening and the others after
   * it at the back, lines 1…n each given once; every join answered */
  onePlace: string[]
  /** admissions from line 1 on, each from the line after the last, none past the line, none
   * before the opening or after the close */
  inOrder: string[]
  /** no line admitted twice; nobody told of two admissions */
  onceEach: string[]
  /** never more admitted since the opening than the set rate allows */
  withinRate: string[]
  /** no buyer's place or count ahead went backwards: on each socket connection in turn, and in
   * any answer asked for after something was heard or answered */
  neverBackwards: string[]
  /** each place told is one the ledger had: waiting behind a line it admitted, admitted by its
   * QueueAdmitted (and its time), closed by its QueueClosed */
  asRecorded: string[]
  /** checkouts without an admission refused while the room is on; every hold of the event after
   * its buyer's admission (or after the close) */
  admissionNeeded: string[]
  /** seats held and sold within each ticket type's capacity */
  withinCapacity: string[]
  /** the room ran on to its end: every buyer admitted or told it closed, alike on every process;
   * closed once sold out; the organizer's figures as the ledger has them */
  ranOn: string[]
}

export const roomCheckNames: Record<keyof RoomChecks, string> = {
  onePlace: 'one place per account',
  inOrder: 'admitted strictly in line order',
  onceEach: 'nobody admitted twice',
  withinRate: 'no faster than the set rate',
  neverBackwards: 'no place or count ahead went backwards',
  asRecorded: 'every place told as the ledger has it',
  admissionNeeded: 'no checkout without an admission',
  withinCapacity: 'nothing sold beyond capacity',
  ranOn: 'the room ran on to its end',
}

type Admission = { from: number; through: number; at: string; expiresAt: string; position: number }

/** The room as its stream and the event's orders have it. */
export type RoomLedger = {
  /** each account's line (the pre-queue's by its draw's rank at the opening) */
  lines: Map<string, number>
  joins: Map<string, Array<StoredFact<QueueJoined>>>
  earlyJoins: number
  opened: { at: string; early: number; position: number } | null
  admissions: Admission[]
  closed: { at: string; position: number } | null
  /** lines given (the pre-queue's and those after) */
  lineCount: number
}

export function readRoom(facts: StoredFact[], eventId: string): RoomLedger & { problems: string[] } {
  const stream = `room-${eventId}`
  const problems: string[] = []
  const lines = new Map<string, number>()
  const joins = new Map<string, Array<StoredFact<QueueJoined>>>()
  const early: Array<{ accountId: string; draw: string }> = []
  let opened: RoomLedger['opened'] = null
  let closed: RoomLedger['closed'] = null
  let nextLine = 1
  const admissions: Admission[] = []
  for (const stored of facts) {
    if (stored.stream !== stream) continue
    const fact = stored as StoredFact<QueueFact>
    switch (fact.type) {
      case 'OnSaleSet':
      case 'QueuePaused':
      case 'QueueResumed':
        break
      case 'QueueJoined': {
        const { accountId } = fact.data
        joins.set(accountId, [...(joins.get(accountId) ?? []), fact])
        if (fact.data.early) {
          if (opened) problems.push(`${accountId} joined the pre-queue after the opening (#${fact.position})`)
          early.push({ accountId, draw: fact.data.draw })
        } else {
          if (!opened) problems.push(`${accountId} joined at the back before the opening (#${fact.position})`)
          if (fact.data.line !== nextLine)
            problems.push(`${accountId} joined at line ${fact.data.line}, the next was ${nextLine}`)
          if (!lines.has(accountId)) lines.set(accountId, fact.data.line)
          nextLine = Math.max(nextLine, fact.data.line) + 1
        }
        break
      }
      case 'QueueOpened': {
        if (opened) problems.push(`the room opened twice (#${opened.position} and #${fact.position})`)
        opened = { at: fact.data.at, early: fact.data.early, position: fact.position }
        if (fact.data.early !== early.length)
          problems.push(
            `the opening counted ${fact.data.early} in the pre-queue, ${early.length} had joined it`,
          )
        // the pre-queue's places: its draws' rank (ties by account), as the projection gives them
        const ranked = [...early].sort((a, b) =>
          a.draw === b.draw ? (a.accountId < b.accountId ? -1 : 1) : a.draw < b.draw ? -1 : 1,
        )
        ranked.forEach((e, i) => {
          if (!lines.has(e.accountId)) lines.set(e.accountId, i + 1)
        })
        nextLine = early.length + 1
        break
      }
      case 'QueueAdmitted':
        admissions.push({ ...fact.data, position: fact.position })
        break
      case 'QueueClosed':
        if (closed) problems.push(`the room closed twice (#${closed.position} and #${fact.position})`)
        closed = { at: fact.data.at, position: fact.position }
        break
      default:
        fact satisfies never
    }
  }
  return {
    lines,
    joins,
    earlyJoins: early.length,
    opened,
    admissions,
    closed,
    lineCount: nextLine - 1,
    problems,
  }
}

/** how far along a place is: its state's rank, and the line admitted through as it shows it */
function progress(place: QueuePlace, line: number | undefined): { rank: number; through: number } {
  switch (place.state) {
    case 'pre-queue':
      return { rank: 0, through: -1 }
    case 'waiting':
      return { rank: 1, through: (line ?? 0) - (place.position ?? 0) }
    case 'admitted':
    case 'expired':
    case 'closed':
      return { rank: 2, through: Number.POSITIVE_INFINITY }
  }
}

const shown = (place: QueuePlace) =>
  place.state === 'waiting' ? `waiting at ${place.position} (${place.ahead} ahead)` : place.state

export function checkRoom(parts: {
  facts: StoredFact[]
  event: EventSeed
  buyers: LineBuyer[]
  admitPerMinute: number
  /** checkouts sent without an admission while the room was on, and what each must be answered */
  unadmitted: Array<{ what: string; op: Op; status: number; message: string }>
  /** the organizer's GET /event/{id}/queue at the end */
  stats: { admitted: number; sold: number; waiting: number } | null
}): { checks: RoomChecks; room: RoomLedger; sold: number; heldOut: boolean } {
  const { facts, event, buyers } = parts
  const { problems, ...room } = readRoom(facts, event.eventId)
  const checks: RoomChecks = {
    onePlace: [...problems],
    inOrder: [],
    onceEach: [],
    withinRate: [],
    neverBackwards: [],
    asRecorded: [],
    admissionNeeded: [],
    withinCapacity: [],
    ranOn: [],
  }

  // ---- One place per account
  /** joins answered "closed" only: the room had closed (sold out) before them, they are not in line */
  const turnedAway = (b: LineBuyer) =>
    b.joins.length > 0 &&
    b.joins.every((j) => j.status === 200 && (j.answer as QueuePlace).state === 'closed')
  const inLine = buyers.filter((b) => b.joins.some((j) => j.status === 200) && !turnedAway(b))
  for (const b of buyers) {
    for (const j of b.joins)
      if (j.status !== 200)
        checks.onePlace.push(`buyer ${b.index}'s join #${j.seq} answered ${j.status ?? j.error}`)
    const n = room.joins.get(b.accountId)?.length ?? 0
    if (turnedAway(b)) {
      if (n > 0) checks.onePlace.push(`buyer ${b.index} was answered closed but is in line`)
      if (!room.closed) checks.onePlace.push(`buyer ${b.index} was answered closed; the room never closed`)
    } else if (b.joins.length > 0 && n !== 1)
      checks.onePlace.push(`buyer ${b.index} joined ${n} times in the ledger`)
    if (b.joins.length === 0 && n > 0) checks.onePlace.push(`buyer ${b.index} never joined but is in line`)
    const first = room.joins.get(b.accountId)?.[0]
    if (first && first.data.early !== b.early)
      checks.onePlace.push(
        `buyer ${b.index} joined ${b.early ? 'before' : 'after'} the opening, the ledger says otherwise`,
      )
  }
  if (room.joins.size !== inLine.length)
    checks.onePlace.push(`${room.joins.size} accounts in the ledger's line, ${inLine.length} buyers joined`)
  const linesGiven = [...room.lines.values()].sort((a, b) => a - b)
  if (linesGiven.some((line, i) => line !== i + 1) || linesGiven.length !== room.lineCount)
    checks.onePlace.push(`the lines given are not 1…${room.lineCount} once each`)
  for (const b of buyers)
    if (b.early && b.joins.some((j) => j.status === 200 && (j.answer as QueuePlace).state !== 'pre-queue'))
      checks.onePlace.push(`buyer ${b.index} joined before the opening and was not answered pre-queue`)

  // ---- In line order, once each, within the rate
  if (!room.opened) checks.inOrder.push('the room never opened')
  let through = 0
  /** the lines given by each point of the stream: the pre-queue's at the opening, one a late join */
  const givenBy = (position: number) =>
    (room.opened && room.opened.position < position ? room.opened.early : 0) +
    [...room.joins.values()].flat().filter((j) => j.position < position && !j.data.early).length
  for (const a of room.admissions) {
    if (room.opened === null || a.position < room.opened.position)
      checks.inOrder.push(`lines ${a.from}…${a.through} admitted before the opening`)
    if (room.closed && a.position > room.closed.position)
      checks.inOrder.push(`lines ${a.from}…${a.through} admitted after the close`)
    if (a.from <= through)
      checks.onceEach.push(`lines ${a.from}…${Math.min(a.through, through)} admitted again (#${a.position})`)
    else if (a.from !== through + 1)
      checks.inOrder.push(`lines ${through + 1}…${a.from - 1} skipped (#${a.position} admits from ${a.from})`)
    if (a.through < a.from) checks.inOrder.push(`an admission of lines ${a.from}…${a.through}`)
    const given = givenBy(a.position)
    if (a.through > given) checks.inOrder.push(`line ${a.through} admitted when ${given} lines were given`)
    through = Math.max(through, a.through)
    if (room.opened) {
      const ms = Date.parse(a.at) - Date.parse(room.opened.at)
      const allowed = Math.floor((parts.admitPerMinute * ms) / 60_000) + 1
      if (a.through > allowed)
        checks.withinRate.push(
          `${a.through} admitted ${(ms / 1000).toFixed(1)} s after the opening, ${allowed} at most at ${parts.admitPerMinute} a minute`,
        )
    }
  }
  const admissionOf = (line: number | undefined) =>
    line === undefined ? undefined : room.admissions.find((a) => a.from <= line && line <= a.through)
  const throughs = new Set([0, ...room.admissions.map((a) => a.through)])

  // ---- What each buyer was told, against the ledger, and never backwards
  for (const b of buyers) {
    const line = room.lines.get(b.accountId)
    const admission = admissionOf(line)
    const all = [...b.heard.flat(), ...b.asked]
    const expiries = new Set<string>()
    for (const { place } of all) {
      const wrong = (why: string) =>
        checks.asRecorded.push(`buyer ${b.index} (line ${line}) told ${shown(place)}: ${why}`)
      switch (place.state) {
        case 'pre-queue':
          if (!b.early) wrong('it joined after the opening')
          break
        case 'waiting': {
          const position = place.position ?? 0
          if (line === undefined) wrong('it has no line')
          else if (position < 1 || !throughs.has(line - position))
            wrong(`no admission ever stopped at line ${line - position}`)
          if (place.ahead !== position - 1) wrong('the count ahead is not the place before it')
          break
        }
        case 'admitted':
          if (!admission) wrong('its line was never admitted')
          else if (place.admissionExpiresAt !== admission.expiresAt)
            wrong(`its admission runs until ${admission.expiresAt}`)
          if (place.admissionExpiresAt) expiries.add(place.admissionExpiresAt)
          break
        case 'expired':
          wrong('no admission runs out within the run')
          break
        case 'closed':
          if (!room.closed) wrong('the room never closed')
          else if (admission) wrong('its line was admitted')
          break
      }
    }
    if (expiries.size > 1) checks.onceEach.push(`buyer ${b.index} was told of ${expiries.size} admissions`)

    const behind = (before: Told, after: Told) => {
      const x = progress(before.place, line)
      const y = progress(after.place, line)
      return (
        y.rank < x.rank ||
        (y.rank === x.rank && y.through < x.through) ||
        (x.rank === 2 && y.rank === 2 && before.place.state !== after.place.state)
      )
    }
    const backwards = (before: Told, after: Told, how: string) =>
      checks.neverBackwards.push(
        `buyer ${b.index} (line ${line}) was told ${shown(before.place)}, then ${shown(after.place)} ${how}`,
      )
    // each connection's messages come from one process in the order it read them
    for (const heard of b.heard)
      for (let k = 1; k < heard.length; k++) {
        const [before, after] = [heard[k - 1] as Told, heard[k] as Told]
        if (behind(before, after)) backwards(before, after, 'on its socket')
      }
    // an answer asked for after something arrived was read after it
    for (const after of b.asked)
      for (const before of all)
        if (before.at < after.from && behind(before, after)) {
          backwards(before, after, 'when it asked afterwards')
          break
        }
  }

  // ---- No checkout without an admission
  for (const u of parts.unadmitted) {
    const { message } = (u.op.answer ?? {}) as { message?: string }
    if (u.op.status !== u.status || message !== u.message) {
      // a buyer whose turn came before its request was decided may have been let in: the ledger's
      // holds below say whether that hold followed its admission
      const held = u.op.status === 200 && u.what.startsWith('waiting')
      if (!held)
        checks.admissionNeeded.push(
          `${u.what}: answered ${u.op.status ?? u.op.error} ${message ?? ''}, not ${u.status} ${u.message}`,
        )
    }
  }
  for (const b of buyers)
    for (const c of b.checkouts)
      if (c.status === 403)
        checks.admissionNeeded.push(`buyer ${b.index}, admitted, was refused a checkout (#${c.seq})`)
  const held = facts.filter(
    (f) => f.type === 'TicketsHeld' && (f.data as { eventId: string }).eventId === event.eventId,
  )
  for (const hold of held) {
    const { buyerId } = hold.data as { buyerId: string }
    if (room.closed && room.closed.position < hold.position) continue
    const a = admissionOf(room.lines.get(buyerId))
    if (!a || a.position > hold.position || Date.parse(a.expiresAt) <= Date.parse(hold.at))
      checks.admissionNeeded.push(
        `${hold.stream} (#${hold.position}) held for ${buyerId} without an admission`,
      )
  }

  // ---- Within capacity
  const orders = foldOrders(facts)
  let taken = 0
  let sold = 0
  for (const type of event.ticketTypes) {
    let heldSeats = 0
    let soldSeats = 0
    for (const order of orders.values()) {
      if (order.ticketTypeId !== type.ticketTypeId) continue
      if (order.status === 'held') heldSeats += order.quantity
      if (order.status === 'issued') soldSeats += order.quantity
    }
    taken += heldSeats + soldSeats
    sold += soldSeats
    if (heldSeats + soldSeats > type.quantity)
      checks.withinCapacity.push(`${type.type}: ${soldSeats} sold and ${heldSeats} held of ${type.quantity}`)
  }
  const capacity = event.ticketTypes.reduce((n, t) => n + t.quantity, 0)

  // ---- Ran on to its end
  // A sell-out (every seat sold) closes the room for those still waiting (told at once); a room
  // nobody waits in is left alone until someone joins (queue/queries.ts's dueRooms), so with
  // everyone in line admitted before the last seat went, it stays open and nobody is owed a word.
  // While the seats not sold are all held (a checkout the kill cut, say, until its hold lapses),
  // the room stays on and admits nobody: those still waiting are owed the seats that come back.
  const soldOut = sold >= capacity
  // still on at the end, every seat not sold held: those waiting are owed the seats that come back
  const heldOut = taken >= capacity && !soldOut && !room.closed
  const waiting = inLine.filter((b) =>
    b.final.some((p) => p !== null && (p.state === 'waiting' || p.state === 'pre-queue')),
  )
  if (soldOut && !room.closed && waiting.length > 0)
    checks.ranOn.push(`the event sold out and its room never closed, ${waiting.length} still waiting`)
  if (room.closed && !soldOut)
    checks.ranOn.push(`the room closed with ${capacity - sold} seats not sold (${capacity - taken} on sale)`)
  for (const b of buyers.filter(turnedAway))
    if (b.final.some((p) => p !== null))
      checks.ranOn.push(`buyer ${b.index}, not in line, has a place at the end`)
  for (const b of inLine) {
    const answers = new Set(b.final.map((p) => (p ? shown(p) : 'nothing')))
    if (answers.size > 1)
      checks.ranOn.push(`buyer ${b.index}'s place differs between the processes: ${[...answers].join(', ')}`)
    const last = b.final.find((p) => p !== null)
    const stillOwed = heldOut && last?.state === 'waiting'
    if (!last || (last.state !== 'admitted' && !(room.closed && last.state === 'closed') && !stillOwed))
      checks.ranOn.push(`buyer ${b.index} is ${last ? shown(last) : 'not answered'} at the end`)
  }
  if (parts.stats) {
    if (parts.stats.admitted !== through)
      checks.ranOn.push(`the organizer sees ${parts.stats.admitted} admitted, the ledger ${through}`)
    if (parts.stats.sold !== sold)
      checks.ranOn.push(`the organizer sees ${parts.stats.sold} sold, the ledger ${sold}`)
  } else checks.ranOn.push("the organizer's figures were not answered")
  return { checks, room, sold, heldOut }
}
