// Entry at the door (issue 16), on the real app and its store: a ticket's passes, scans decided by
// the ledger (every result kind, double entries, transfers and cancels voiding codes, forged and
// altered codes), retried syncs that change nothing, who may scan (organizer, door staff of that
// event only, admins), the manifest a scanner works offline from, the organizer's summary, and its
// live push on a socket.
import { generateKeyPairSync, sign } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import type { Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { CheckinSummary, Manifest, ScanReply, TicketPass } from '../../contracts/checkin.ts'
import type { LivePush } from '../../contracts/live.ts'
import { DOUBLE_ENTRIES_RECORDED } from '../../server/booking/decide.ts'
import { MAX_DOOR_STAFF } from '../../server/catalog/decide.ts'
import { passSeed, passSigner } from '../../server/checkin/pass-codes.ts'
import { passImageId } from '../../server/mail/mailer.ts'
import { instantIn } from '../../server/wall-clock.ts'
import { adminSession, bearer, login, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { wallClockIn } from '../support/clock.ts'
import { dbRows, dbRun, ledgerFacts, rebuildStore } from '../support/db.ts'
import { open, sockets } from '../support/live-sockets.ts'
import { type OutboxMail, parsedMail, readOutbox, waitForMail } from '../support/outbox.ts'
import { readQrCode } from '../support/qr-read.ts'
import { approvedEvent, buy, cancel, get, hold, post, transfer, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app

let admin: Session
let organizer: Session
let rival: Session
let door: Session
let rivalDoor: Session
let stranger: Session
let buyers: Session[]
let event: EventView
let rivalEvent: EventView

const plenty = [
  { type: 'General Admission' as const, price: 500, quantity: 5000 },
  { type: 'VIP' as const, price: 1500, quantity: 200 },
]

beforeAll(async () => {
  server = await startServer({
    RATE_LIMITS: 'off',
    MAX_TICKETS_PER_ORDER: '100',
    MAX_TICKETS_PER_ACCOUNT: '5000',
    MAX_HELD_SEATS_PER_ADDRESS: '100000',
    // the door's events start within the day, and their tickets are still cancelled in the tests
    CANCEL_CUTOFF_HOURS: '0',
  })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'Kabini')
  rival = await organizerSession(app(), 'Hampi')
  ;[door, rivalDoor, stranger] = [
    await signUp(app(), 'Gatekeeper'),
    await signUp(app(), 'Usher'),
    await signUp(app(), 'Nosy'),
  ]
  buyers = []
  for (const name of ['Asha', 'Bala', 'Chitra', 'Dev', 'Esha', 'Farid'])
    buyers.push(await signUp(app(), name))
  event = await approvedEvent(app(), organizer, admin, { title: 'Door Night', ...startingSoon() }, plenty)
  rivalEvent = await approvedEvent(app(), rival, admin, { title: 'Other Night', ...startingSoon() }, plenty)
  await addStaff(organizer, event._id, door)
  await addStaff(rival, rivalEvent._id, rivalDoor)
}, 120_000)

afterAll(async () => {
  for (const socket of sockets) socket.disconnect()
  await server?.close()
})

const buyer = (i: number) => buyers[i] as Session
const now = () => new Date().toISOString()
/** an event's date and time `minutes` from now in the app's zone (the door opens 24 hours before) */
const startingIn = (minutes: number) => {
  const { date, time } = wallClockIn(server.config.timeZone, minutes)
  return { date, time }
}
/** an event two hours from now: its door has been open for 22 hours */
const startingSoon = () => startingIn(120)
/** the start of the minute an hour ago: scans of the tests happen from then on, at the open door */
const sceneStart = Math.floor((Date.now() - 3_600_000) / 60_000) * 60_000
/** an instant `minute` minutes and `second` seconds into the tests' scene (ISO) */
const scene = (minute: number, second: number) =>
  new Date(sceneStart + minute * 60_000 + second * 1000).toISOString()
/** 'YYYY-MM-DDTHH:MM' (UTC) of an ISO instant, as the summary counts admissions per minute */
const minuteOf = (at: string) => at.slice(0, 16)
type ScanSent = { code: string; scannedAt: string; device: string }
const scanOf = (code: string, device = 'door-1', scannedAt = now()): ScanSent => ({ code, device, scannedAt })

/** what every invitation is answered, whoever the e-mail names */
const INVITED = 'Invitation sent. It shows as invited until it is accepted.'

const invite = (as: Session, eventId: string, email: string) =>
  post(app(), `/api/v1/checkin/${eventId}/door-staff`, as, { email })

type Invitation = {
  _id: string
  eventId: string
  title: string
  status: 'invited' | 'accepted'
  invitedAt: string
  acceptedAt: string | null
}
type DoorStaffEntry = { _id: string; email: string; status: 'invited' | 'accepted'; username: string | null }

/** the invitation `who` has to the event's door staff, if any */
async function invitationTo(who: Session, eventId: string): Promise<Invitation | undefined> {
  const res = await get(app(), '/api/v1/checkin/invitations', who)
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as Invitation[]).find((invitation) => invitation.eventId === eventId)
}

const accept = (who: Session, invitationId: string) =>
  post(app(), `/api/v1/checkin/invitations/${invitationId}/accept`, who)

/** invites `who` to the event's door and accepts as them: its door staff */
async function addStaff(as: Session, eventId: string, who: Session) {
  expect((await invite(as, eventId, who.email)).statusCode).toBe(202)
  const invitation = await invitationTo(who, eventId)
  expect(invitation?.status).toBe('invited')
  const accepted = await accept(who, invitation?._id ?? '')
  expect(accepted.statusCode, accepted.body).toBe(200)
}

/** an approved event of the organizer's, with `door` as its door staff */
async function doorEvent(title: string): Promise<EventView> {
  const created = await approvedEvent(app(), organizer, admin, { title, ...startingSoon() }, plenty)
  await addStaff(organizer, created._id, door)
  return created
}

const sendScans = (as: Session | null, eventId: string, scans: ScanSent[]) =>
  post(app(), `/api/v1/checkin/${eventId}/scans`, as, { scans })

/** POST scans that must be answered: the answers */
async function scanned(as: Session, eventId: string, scans: ScanSent[]): Promise<ScanReply[]> {
  const res = await sendScans(as, eventId, scans)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ScanReply[]
}

async function passesOf(ticketId: string, as: Session): Promise<TicketPass[]> {
  const res = await get(app(), `/api/v1/ticket/${ticketId}/passes`, as)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as TicketPass[]
}

async function manifestOf(eventId: string, as: Session = organizer): Promise<LightMyRequestResponse> {
  const res = await get(app(), `/api/v1/checkin/${eventId}/manifest`, as)
  expect(res.statusCode, res.body).toBe(200)
  return res
}

async function summaryOf(eventId: string, as: Session = organizer): Promise<CheckinSummary> {
  const res = await get(app(), `/api/v1/checkin/${eventId}/summary`, as)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as CheckinSummary
}

/** cancels a paid ticket and waits for its refund (a worker's fact), so the ledger is still after */
async function cancelSettled(owner: Session, ticketId: string) {
  await cancel(app(), owner, ticketId)
  await until(async () =>
    (await app().platform.ledger.readStream(`order-${ticketId}`)).some((f) => f.type === 'PaymentRefunded'),
  )
}

const factCount = async () => (await ledgerFacts(app())).length
const factsOfType = async (type: string) => (await ledgerFacts(app())).filter((f) => f.type === type)
const refusalOf = (res: LightMyRequestResponse) => ({ status: res.statusCode, message: res.json().message })

/** a code of this claim signed with a key that is not the server's */
function forged(claim: { e: string; t: string; a: number; v: number }): string {
  const { privateKey } = generateKeyPairSync('ed25519')
  const signed = `TKT1.${Buffer.from(JSON.stringify(claim)).toString('base64url')}`
  return `${signed}.${sign(null, Buffer.from(signed), privateKey).toString('base64url')}`
}

describe('GET /ticket/{ticketId}/passes', () => {
  it('gives the holder one signed pass per admission, valid, that the manifest’s key verifies', async () => {
    const ticket = await buy(app(), buyer(0), event, 'VIP', 3)
    const passes = await passesOf(ticket, buyer(0))
    expect(passes.map((p) => [p._id, p.admission, p.status, p.admittedAt])).toEqual([
      [`${ticket}.1.0`, 1, 'valid', null],
      [`${ticket}.2.0`, 2, 'valid', null],
      [`${ticket}.3.0`, 3, 'valid', null],
    ])
    const manifest = (await manifestOf(event._id)).json() as Manifest
    const signer = passSigner(passSeed(server.config.jwt.secret, server.config.passSigningKey))
    expect(manifest.publicKey).toBe(signer.publicKey)
    for (const pass of passes) {
      expect(signer.verify(pass.code)).toEqual({
        eventId: event._id,
        ticketId: ticket,
        admission: pass.admission,
        version: 0,
      })
    }
  })

  it('is the holder’s, the event’s organizer’s and the admins’; anyone else gets 404', async () => {
    const ticket = await buy(app(), buyer(1), event, 'General Admission', 1)
    const statuses: Record<string, number> = {}
    for (const [name, as] of [
      ['holder', buyer(1)],
      ['organizer', organizer],
      ['admin', admin],
      ['another user', stranger],
      ['another organizer', rival],
      ['door staff', door],
    ] as const) {
      const res = await get(app(), `/api/v1/ticket/${ticket}/passes`, as)
      statuses[name] = res.statusCode
      if (res.statusCode === 404) expect(res.json().message).toBe('Ticket not found.')
    }
    statuses.visitor = (await get(app(), `/api/v1/ticket/${ticket}/passes`)).statusCode
    expect(statuses).toEqual({
      holder: 200,
      organizer: 200,
      admin: 200,
      'another user': 404,
      'another organizer': 404,
      'door staff': 404,
      visitor: 401,
    })
    expect((await get(app(), '/api/v1/ticket/no-such-ticket/passes', admin)).statusCode).toBe(404)
  })

  it('shows the passes of an unpaid ticket and of a cancelled one as void, with no code a door could take', async () => {
    const unpaid = await hold(app(), buyer(2), event, 'VIP', 2)
    const never = await passesOf(unpaid.ticketId, buyer(2))
    expect(never.map((p) => [p.status, p.code])).toEqual([
      ['void', ''],
      ['void', ''],
    ])
    const ticket = await buy(app(), buyer(2), event, 'VIP', 2)
    const issued = await passesOf(ticket, buyer(2))
    expect(issued.every((p) => p.status === 'valid' && p.code.startsWith('TKT1.'))).toBe(true)
    await cancel(app(), buyer(2), ticket)
    expect((await passesOf(ticket, buyer(2))).map((p) => [p.status, p.code])).toEqual([
      ['void', ''],
      ['void', ''],
    ])
  })
})

describe('the mails that give tickets', () => {
  /** the pass images a mail carries, by content id, and the HTML that shows them */
  async function passImagesOf(mail: OutboxMail) {
    const parsed = await parsedMail(server.config.outboxDir, mail)
    const images = new Map(parsed.attachments.map((a) => [a.contentId?.replace(/^<|>$/g, ''), a]))
    return { html: String(parsed.html), images, text: parsed.text ?? '' }
  }
  const mailTo = (who: Session, subject: string) =>
    waitForMail(server.config.outboxDir, (m) => m.to.includes(who.email) && m.subject.includes(subject))

  it('carry each pass as the QR code of its code: the confirmation, then the new holder’s after a transfer', async () => {
    const title = `Mail Night ${Date.now()}`
    const night = await approvedEvent(app(), organizer, admin, { title }, plenty)
    const ticket = await buy(app(), buyer(2), night, 'VIP', 2)
    const passes = await passesOf(ticket, buyer(2))
    const confirmation = await passImagesOf(await mailTo(buyer(2), `Your tickets for ${title}`))
    expect(confirmation.text).toContain(`/ticket/${ticket}`)
    expect(confirmation.images.size).toBe(2)
    for (const pass of passes) {
      const image = confirmation.images.get(passImageId(pass.admission))
      expect(image?.contentType).toBe('image/png')
      // read back from the image by a QR reader (ZXing's, as the door's fallback): the pass's own code
      expect(await readQrCode(image?.content ?? Buffer.alloc(0))).toBe(pass.code)
      expect(confirmation.html).toContain(`src="cid:${passImageId(pass.admission)}"`)
    }

    await transfer(app(), buyer(2), ticket, buyer(3))
    const fresh = await passesOf(ticket, buyer(3))
    const given = await passImagesOf(await mailTo(buyer(3), `sent you a ticket for ${title}`))
    expect(given.images.size).toBe(2)
    for (const pass of fresh)
      expect(
        await readQrCode(given.images.get(passImageId(pass.admission))?.content ?? Buffer.alloc(0)),
      ).toBe(pass.code)
    // the old holder's mail says it is gone, and shows no pass
    const gone = await passImagesOf(await mailTo(buyer(2), `You transferred your ticket for ${title}`))
    expect(gone.images.size).toBe(0)
  })
})

describe('POST /checkin/{eventId}/scans', () => {
  it('admits a valid pass, with the holder and ticket type', async () => {
    const ticket = await buy(app(), buyer(0), event, 'VIP', 2)
    const [pass] = await passesOf(ticket, buyer(0))
    const before = await factsOfType('PassAdmitted')
    const sent = scanOf(pass?.code ?? '', 'door-1')
    const [answer] = await scanned(door, event._id, [sent])
    expect(answer).toEqual({
      code: pass?.code,
      result: 'admitted',
      admittedAt: sent.scannedAt,
      device: 'door-1',
      ticketType: 'VIP',
      holder: 'Asha',
    })
    expect(await factsOfType('PassAdmitted')).toHaveLength(before.length + 1)
    const [again] = await passesOf(ticket, buyer(0))
    expect(again).toMatchObject({ status: 'admitted', admittedAt: sent.scannedAt })
  })

  it('answers a second scan of an admitted pass "already-admitted" and records the double entry', async () => {
    const ticket = await buy(app(), buyer(3), event, 'General Admission', 1)
    const [pass] = await passesOf(ticket, buyer(3))
    const code = pass?.code ?? ''
    // two devices scanned it offline; the one that syncs first wins
    const first = scanOf(code, 'door-A', scene(0, 5))
    const second = scanOf(code, 'door-B', scene(0, 1))
    expect((await scanned(door, event._id, [first]))[0]?.result).toBe('admitted')
    const refusedBefore = (await factsOfType('PassScanRefused')).length
    const [answer] = await scanned(organizer, event._id, [second])
    expect(answer).toEqual({
      code,
      result: 'already-admitted',
      admittedAt: first.scannedAt,
      device: 'door-B',
      ticketType: 'General Admission',
      holder: 'Dev',
    })
    const refused = await factsOfType('PassScanRefused')
    expect(refused).toHaveLength(refusedBefore + 1)
    expect(refused.at(-1)?.data).toMatchObject({
      orderId: ticket,
      admission: 1,
      device: 'door-B',
      reason: 'already-admitted',
      firstDevice: 'door-A',
      firstAdmittedAt: first.scannedAt,
    })
    const { doubleEntries } = await summaryOf(event._id)
    expect(doubleEntries).toContainEqual({
      passId: `${ticket}.1.0`,
      device: 'door-B',
      scannedAt: second.scannedAt,
      firstDevice: 'door-A',
      firstAdmittedAt: first.scannedAt,
      holder: 'Dev',
    })
  })

  it(`records at most ${DOUBLE_ENTRIES_RECORDED} double entries of a ticket; past them a scan is still answered "already-admitted", adding nothing`, async () => {
    const ticket = await buy(app(), buyer(3), event, 'General Admission', 1)
    const [pass] = await passesOf(ticket, buyer(3))
    const code = pass?.code ?? ''
    expect((await scanned(door, event._id, [scanOf(code, 'door-first')]))[0]?.result).toBe('admitted')
    const doubles = Array.from({ length: DOUBLE_ENTRIES_RECORDED + 30 }, (_, i) => scanOf(code, `door-x${i}`))
    const refusedOf = async () =>
      (await app().platform.ledger.readStream(`order-${ticket}`)).filter((f) => f.type === 'PassScanRefused')

    const answers = await scanned(door, event._id, doubles)
    const again = await scanned(door, event._id, doubles)

    expect(new Set([...answers, ...again].map((a) => a.result))).toEqual(new Set(['already-admitted']))
    expect(again).toEqual(answers)
    expect(await refusedOf()).toHaveLength(DOUBLE_ENTRIES_RECORDED)
  })

  it('answers "void" for a pass of a cancelled ticket, and records nothing', async () => {
    const ticket = await buy(app(), buyer(4), event, 'VIP', 1)
    const [pass] = await passesOf(ticket, buyer(4))
    await cancelSettled(buyer(4), ticket)
    const facts = await factCount()
    const [answer] = await scanned(door, event._id, [scanOf(pass?.code ?? '')])
    expect(answer).toMatchObject({ result: 'void', admittedAt: null, ticketType: 'VIP', holder: 'Esha' })
    expect(await factCount()).toBe(facts)
  })

  it('answers "too-early" before the door opens (24 hours before the start), admitting no one and recording nothing', async () => {
    // starts in three days: the door opens in two
    const later = await approvedEvent(
      app(),
      organizer,
      admin,
      { title: 'Later Night', ...startingIn(3 * 24 * 60) },
      plenty,
    )
    await addStaff(organizer, later._id, door)
    const ticket = await buy(app(), buyer(2), later, 'VIP', 1)
    const [pass] = await passesOf(ticket, buyer(2))
    const code = pass?.code ?? ''
    const facts = await factCount()
    const sent = scanOf(code, 'door-early')
    const [answer] = await scanned(door, later._id, [sent])
    expect(answer).toEqual({
      code,
      result: 'too-early',
      admittedAt: null,
      device: 'door-early',
      ticketType: 'VIP',
      holder: 'Chitra',
    })
    // the same scan again: the same answer
    expect(await scanned(organizer, later._id, [sent])).toEqual([answer])
    // a device whose clock is set past the opening is not believed: the server's clock says when
    const fromTheFuture = scanOf(code, 'door-ahead', new Date(Date.now() + 4 * 24 * 3_600_000).toISOString())
    expect((await scanned(door, later._id, [fromTheFuture]))[0]?.result).toBe('too-early')
    expect(await factCount()).toBe(facts)
    expect((await passesOf(ticket, buyer(2)))[0]?.status).toBe('valid')
    expect((await summaryOf(later._id)).ticketTypes.every((t) => t.admitted === 0)).toBe(true)
  })

  it('answers "too-early" for a scan made before the opening and synced after it; the same pass scanned now is admitted', async () => {
    const ticket = await buy(app(), buyer(5), event, 'VIP', 1)
    const [pass] = await passesOf(ticket, buyer(5))
    const code = pass?.code ?? ''
    // the event starts in two hours: its door opened 22 hours ago
    const dayBefore = new Date(Date.now() - 23 * 3_600_000).toISOString()
    const [early, onTime] = await scanned(door, event._id, [
      scanOf(code, 'door-x', dayBefore),
      scanOf(code, 'door-x'),
    ])
    expect(early).toMatchObject({ result: 'too-early', admittedAt: null, holder: 'Farid' })
    expect(onTime).toMatchObject({ result: 'admitted', holder: 'Farid' })
  })

  it('answers "void" for the old code after a transfer, and admits the new one for its new holder', async () => {
    const ticket = await buy(app(), buyer(5), event, 'General Admission', 2)
    const [old] = await passesOf(ticket, buyer(5))
    await transfer(app(), buyer(5), ticket, buyer(1))
    const [fresh] = await passesOf(ticket, buyer(1))
    expect(fresh?._id).toBe(`${ticket}.1.1`)
    expect(fresh?.code).not.toBe(old?.code)
    // the old holder no longer sees them
    expect((await get(app(), `/api/v1/ticket/${ticket}/passes`, buyer(5))).statusCode).toBe(404)
    const answers = await scanned(door, event._id, [scanOf(old?.code ?? ''), scanOf(fresh?.code ?? '')])
    expect(answers.map((a) => [a.result, a.holder])).toEqual([
      ['void', 'Bala'],
      ['admitted', 'Bala'],
    ])
    // admitted stays admitted after another transfer: the next version's code is a double entry
    await transfer(app(), buyer(1), ticket, buyer(5))
    const [third] = await passesOf(ticket, buyer(5))
    expect(third).toMatchObject({ _id: `${ticket}.1.2`, status: 'admitted' })
    expect((await scanned(door, event._id, [scanOf(third?.code ?? '')]))[0]?.result).toBe('already-admitted')
  })

  it('answers "invalid" for forged, altered and garbled codes, naming nobody', async () => {
    const ticket = await buy(app(), buyer(0), event, 'VIP', 2)
    const [pass] = await passesOf(ticket, buyer(0))
    const [prefix, payload, signature] = (pass?.code ?? '').split('.') as [string, string, string]
    const other = Buffer.from(JSON.stringify({ e: event._id, t: ticket, a: 2, v: 0 })).toString('base64url')
    const codes = [
      forged({ e: event._id, t: ticket, a: 1, v: 0 }),
      `${prefix}.${other}.${signature}`,
      `${prefix}.${payload}.${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`,
      'garbage',
      '',
      'https://example.com/ticket/1',
    ]
    const facts = await factCount()
    const answers = await scanned(
      door,
      event._id,
      codes.map((code) => scanOf(code)),
    )
    expect(answers).toEqual(
      codes.map((code) => ({
        code,
        result: 'invalid',
        admittedAt: null,
        device: 'door-1',
        ticketType: null,
        holder: null,
      })),
    )
    expect(await factCount()).toBe(facts)
    // and the real code still admits
    expect((await scanned(door, event._id, [scanOf(pass?.code ?? '')]))[0]?.result).toBe('admitted')
  })

  it('answers "wrong-event" for a pass of another event', async () => {
    const ticket = await buy(app(), buyer(2), rivalEvent, 'VIP', 1)
    const [pass] = await passesOf(ticket, buyer(2))
    const [answer] = await scanned(door, event._id, [scanOf(pass?.code ?? '')])
    expect(answer).toMatchObject({ result: 'wrong-event', ticketType: null, holder: null, admittedAt: null })
    // at its own event it admits
    expect((await scanned(rivalDoor, rivalEvent._id, [scanOf(pass?.code ?? '')]))[0]?.result).toBe('admitted')
  })

  it('answers in the order sent, the same scan twice in a batch the same way', async () => {
    const ticket = await buy(app(), buyer(3), event, 'General Admission', 3)
    const passes = await passesOf(ticket, buyer(3))
    const code = (i: number) => passes[i]?.code ?? ''
    const twice = scanOf(code(0), 'door-2')
    const answers = await scanned(door, event._id, [
      twice,
      scanOf('garbage'),
      scanOf(code(1), 'door-2'),
      twice,
      scanOf(code(0), 'door-3'),
      scanOf(code(2), 'door-3'),
    ])
    expect(answers.map((a) => [a.result, a.device])).toEqual([
      ['admitted', 'door-2'],
      ['invalid', 'door-1'],
      ['admitted', 'door-2'],
      ['admitted', 'door-2'],
      ['already-admitted', 'door-3'],
      ['admitted', 'door-3'],
    ])
    const ofTicket = (await ledgerFacts(app())).filter(
      (f) => f.stream === `order-${ticket}` && f.type.startsWith('Pass'),
    )
    expect(ofTicket.map((f) => f.type)).toEqual([
      'PassAdmitted',
      'PassAdmitted',
      'PassScanRefused',
      'PassAdmitted',
    ])
  })

  it('changes nothing when a sync is sent again: the same answers, no new facts', async () => {
    const ticket = await buy(app(), buyer(4), event, 'VIP', 2)
    const other = await buy(app(), buyer(5), event, 'VIP', 1)
    const [a, b] = await passesOf(ticket, buyer(4))
    const [c] = await passesOf(other, buyer(5))
    const rivalTicket = await buy(app(), buyer(4), rivalEvent, 'VIP', 1)
    const [foreign] = await passesOf(rivalTicket, buyer(4))
    const batch = [
      scanOf(a?.code ?? '', 'phone-1', scene(1, 0)),
      scanOf(a?.code ?? '', 'phone-2', scene(1, 2)),
      scanOf(b?.code ?? '', 'phone-2', scene(1, 3)),
      scanOf(foreign?.code ?? '', 'phone-1', scene(1, 4)),
      scanOf('not a pass', 'phone-1', scene(1, 5)),
    ]
    await cancelSettled(buyer(5), other)
    batch.push(scanOf(c?.code ?? '', 'phone-1', scene(1, 6)))
    const first = await scanned(door, event._id, batch)
    expect(first.map((r) => r.result)).toEqual([
      'admitted',
      'already-admitted',
      'admitted',
      'wrong-event',
      'invalid',
      'void',
    ])
    const facts = await factCount()
    const head = await app().platform.ledger.head()
    // the network dropped the answer: the door sends the very same batch again, twice at once
    const [again, thrice] = await Promise.all([
      scanned(door, event._id, batch),
      scanned(organizer, event._id, batch),
    ])
    expect(again).toEqual(first)
    expect(thrice).toEqual(first)
    expect(await factCount()).toBe(facts)
    expect(await app().platform.ledger.head()).toBe(head)
    // even after the ticket was transferred since (its code is void now): the answer given is kept
    await transfer(app(), buyer(4), ticket, buyer(0))
    const afterTransfer = await scanned(door, event._id, batch)
    expect(afterTransfer.map((r) => r.result)).toEqual(first.map((r) => r.result))
  })

  it('takes up to 500 scans at once, in one commit', async () => {
    const many = Array.from({ length: 500 }, (_, i) => scanOf(`garbage-${i}`))
    const answers = await scanned(door, event._id, many)
    expect(answers).toHaveLength(500)
    expect(new Set(answers.map((a) => a.result))).toEqual(new Set(['invalid']))
  })

  it.each([
    ['no scans', { scans: [] }],
    ['501 scans', { scans: Array.from({ length: 501 }, () => scanOf('x')) }],
    ['no body fields', {}],
    ['scans that are not a list', { scans: 'many' }],
    ['a scan without a device', { scans: [{ code: 'x', scannedAt: now() }] }],
    ['an empty device', { scans: [scanOf('x', '')] }],
    ['a device name of 101 characters', { scans: [scanOf('x', 'd'.repeat(101))] }],
    ['a device name with a NUL', { scans: [scanOf('x', 'door\u00001')] }],
    ['a device name with a line break', { scans: [scanOf('x', 'door\n1')] }],
    ['a code of 1001 characters', { scans: [scanOf('c'.repeat(1001))] }],
    ['a code that is not text', { scans: [{ code: 42, scannedAt: now(), device: 'd' }] }],
    ['a time that is not one', { scans: [scanOf('x', 'd', 'yesterday')] }],
    ['a time that does not exist', { scans: [scanOf('x', 'd', '2031-02-30T25:61:00Z')] }],
    ['a day that does not exist', { scans: [scanOf('x', 'd', '2031-02-30T10:00:00Z')] }],
    ['the hour 24', { scans: [scanOf('x', 'd', '2031-01-01T24:00:00Z')] }],
  ])('refuses %s with 400 and a message', async (_label, body) => {
    const res = await post(app(), `/api/v1/checkin/${event._id}/scans`, door, body)
    expect(res.statusCode, res.body).toBe(400)
    expect(typeof res.json().message).toBe('string')
    expect(res.json().message.length).toBeGreaterThan(0)
  })

  it('lets the organizer, its door staff and the admins scan; refuses door staff of another event and everyone else', async () => {
    const ticket = await buy(app(), buyer(0), event, 'General Admission', 1)
    const [pass] = await passesOf(ticket, buyer(0))
    const statuses: Record<string, number> = {}
    for (const [name, as] of [
      ['organizer', organizer],
      ['door staff', door],
      ['admin', admin],
      ['door staff of another event', rivalDoor],
      ['another organizer', rival],
      ['a ticket holder', buyer(0)],
      ['a random user', stranger],
    ] as const) {
      const res = await sendScans(as, event._id, [scanOf(pass?.code ?? '', name)])
      statuses[name] = res.statusCode
      if (res.statusCode === 403) {
        expect(res.json().message).toBe("You do not have access to this event's check-in.")
      }
    }
    statuses.visitor = (await sendScans(null, event._id, [scanOf(pass?.code ?? '')])).statusCode
    expect(statuses).toEqual({
      organizer: 200,
      'door staff': 200,
      admin: 200,
      'door staff of another event': 403,
      'another organizer': 403,
      'a ticket holder': 403,
      'a random user': 403,
      visitor: 401,
    })
    const unknown = await sendScans(admin, 'no-such-event', [scanOf('x')])
    expect(refusalOf(unknown)).toEqual({ status: 404, message: 'Event not found.' })
  })
})

describe('door staff', () => {
  const staffList = async (eventId: string, as: Session = organizer): Promise<DoorStaffEntry[]> => {
    const res = await get(app(), `/api/v1/checkin/${eventId}/door-staff`, as)
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as DoorStaffEntry[]
  }
  const freshEvent = (title: string) =>
    approvedEvent(app(), organizer, admin, { title, ...startingSoon() }, plenty)
  const mailsTo = (email: string, title: string) =>
    readOutbox(server.config.outboxDir).filter((m) => m.to.includes(email) && m.subject.includes(title))

  it('are invited by e-mail with the same answer whether the e-mail has an account or not, and are mailed the invitation', async () => {
    const title = `Invite Night ${Date.now()}`
    const fresh = await freshEvent(title)
    const known = await signUp(app(), 'Known')
    const nobody = `no-account-${Date.now()}@example.com`
    const answers: Array<{ status: number; body: unknown }> = []
    for (const email of [known.email, nobody, known.email.toUpperCase()]) {
      const res = await invite(organizer, fresh._id, email)
      answers.push({ status: res.statusCode, body: res.json() })
    }
    expect(answers[0]).toEqual({ status: 202, body: { message: INVITED } })
    expect(answers.slice(1)).toEqual([answers[0], answers[0]])

    // each address gets the invitation, with the way to accept it (the one invited again, twice)
    const mail = await waitForMail(
      server.config.outboxDir,
      (m) => m.to.includes(known.email) && m.subject.includes(title),
    )
    expect(mail.subject).toBe(`You are invited to the door staff of ${title}`)
    expect(mail.text).toContain(`${server.config.publicUrl}/checkin`)
    expect(mail.text).toContain('Kabini')
    await waitForMail(server.config.outboxDir, (m) => m.to.includes(nobody) && m.subject.includes(title))
    await until(async () => mailsTo(known.email, title).length === 2)

    // the organizer's list names no account until it accepts
    expect(await staffList(fresh._id)).toEqual([
      {
        _id: expect.any(String),
        email: known.email,
        status: 'invited',
        invitedAt: expect.any(String),
        acceptedAt: null,
        accountId: null,
        username: null,
      },
      {
        _id: expect.any(String),
        email: nobody,
        status: 'invited',
        invitedAt: expect.any(String),
        acceptedAt: null,
        accountId: null,
        username: null,
      },
    ])
    const bad = await invite(organizer, fresh._id, 'not an e-mail')
    expect(bad.statusCode).toBe(400)
  })

  it('see nothing of the event before accepting; accepted, they scan and their manifest names the holders', async () => {
    const fresh = await freshEvent('Accept Night')
    const helper = await signUp(app(), 'Helper')
    expect((await invite(organizer, fresh._id, helper.email)).statusCode).toBe(202)
    const ticket = await buy(app(), buyer(0), fresh, 'VIP', 1)
    const [pass] = await passesOf(ticket, buyer(0))
    const code = pass?.code ?? ''
    for (const res of [
      await get(app(), `/api/v1/checkin/${fresh._id}/manifest`, helper),
      await sendScans(helper, fresh._id, [scanOf(code, 'helper')]),
      await get(app(), `/api/v1/checkin/${fresh._id}/summary`, helper),
    ])
      expect(refusalOf(res)).toEqual({
        status: 403,
        message: "You do not have access to this event's check-in.",
      })

    const invitation = await invitationTo(helper, fresh._id)
    expect(invitation).toEqual({
      _id: expect.any(String),
      eventId: fresh._id,
      title: 'Accept Night',
      date: fresh.date,
      time: fresh.time,
      location: fresh.location,
      organizer: 'Kabini',
      status: 'invited',
      invitedAt: expect.any(String),
      acceptedAt: null,
    })
    const accepted = await accept(helper, invitation?._id ?? '')
    expect(accepted.statusCode, accepted.body).toBe(200)
    expect(accepted.json()).toEqual({
      message: 'You are now door staff of Accept Night.',
      eventId: fresh._id,
    })
    // accepting again changes nothing
    const facts = await factCount()
    expect((await accept(helper, invitation?._id ?? '')).statusCode).toBe(200)
    expect(await factCount()).toBe(facts)

    const manifest = (await manifestOf(fresh._id, helper)).json() as Manifest
    expect(manifest.passes.map((p) => p[4])).toEqual(['Asha'])
    expect((await scanned(helper, fresh._id, [scanOf(code, 'helper')]))[0]).toMatchObject({
      result: 'admitted',
      holder: 'Asha',
    })
    expect(await invitationTo(helper, fresh._id)).toMatchObject({
      status: 'accepted',
      acceptedAt: expect.any(String),
    })
    expect(await staffList(fresh._id)).toEqual([
      {
        _id: invitation?._id,
        email: helper.email,
        status: 'accepted',
        invitedAt: invitation?.invitedAt,
        acceptedAt: expect.any(String),
        accountId: helper.id,
        username: 'Helper',
      },
    ])
    // the holders of the events it works, and of no other; nothing else of the event
    expect((await get(app(), `/api/v1/checkin/${event._id}/manifest`, helper)).statusCode).toBe(403)
    expect((await get(app(), `/api/v1/ticket/getTicketbyId/${ticket}`, helper)).statusCode).toBe(404)
    expect((await get(app(), `/api/v1/dashboard/events/${fresh._id}`, helper)).statusCode).toBe(403)
    expect((await get(app(), `/api/v1/checkin/${fresh._id}/door-staff`, helper)).statusCode).toBe(403)
  })

  it('may be invited before they have an account: signed up with that e-mail, they accept', async () => {
    const fresh = await freshEvent('Newcomer Night')
    const email = `newcomer-${Date.now()}@example.com`
    expect((await invite(organizer, fresh._id, email)).statusCode).toBe(202)
    const registered = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { username: 'Newcomer', email: email.toUpperCase(), password: 'password-1' },
    })
    expect(registered.statusCode, registered.body).toBe(200)
    const token = await login(app(), email, 'password-1')
    const newcomer: Session = { id: '', email, password: 'password-1', username: 'Newcomer', token }
    const invitation = await invitationTo(newcomer, fresh._id)
    expect(invitation?.status).toBe('invited')
    expect((await accept(newcomer, invitation?._id ?? '')).statusCode).toBe(200)
    expect((await manifestOf(fresh._id, newcomer)).statusCode).toBe(200)
  })

  it('is accepted by the account of its e-mail only, and listed to no one else', async () => {
    const fresh = await freshEvent('Private Night')
    const meant = await signUp(app(), 'Meant')
    expect((await invite(organizer, fresh._id, meant.email)).statusCode).toBe(202)
    const invitation = await invitationTo(meant, fresh._id)
    expect(await invitationTo(stranger, fresh._id)).toBeUndefined()
    for (const [who, id] of [
      [stranger, invitation?._id ?? ''],
      [organizer, invitation?._id ?? ''],
      [meant, 'no-such-invitation'],
    ] as const) {
      expect(refusalOf(await accept(who, id))).toEqual({ status: 404, message: 'Invitation not found.' })
    }
    expect((await get(app(), `/api/v1/checkin/${fresh._id}/manifest`, stranger)).statusCode).toBe(403)
    expect(
      (await post(app(), `/api/v1/checkin/invitations/${invitation?._id}/accept`, null)).statusCode,
    ).toBe(401)
  })

  it('withdrawn, declined or removed, can no longer scan nor accept', async () => {
    const fresh = await freshEvent('Leaving Night')
    const [pending, declining, member] = [
      await signUp(app(), 'Pending'),
      await signUp(app(), 'Declining'),
      await signUp(app(), 'Member'),
    ]
    for (const who of [pending, declining])
      expect((await invite(organizer, fresh._id, who.email)).statusCode).toBe(202)
    await addStaff(organizer, fresh._id, member)
    const byEmail = async (who: Session) =>
      (await staffList(fresh._id)).find((entry) => entry.email === who.email) as DoorStaffEntry
    const remove = async (entry: DoorStaffEntry) =>
      app().inject({
        method: 'DELETE',
        url: `/api/v1/checkin/${fresh._id}/door-staff/${entry._id}`,
        headers: bearer(organizer.token),
      })

    // the organizer withdraws an invitation
    const withdrawn = await invitationTo(pending, fresh._id)
    expect((await remove(await byEmail(pending))).json()).toEqual({ message: 'Removed from the door staff.' })
    expect(refusalOf(await accept(pending, withdrawn?._id ?? ''))).toEqual({
      status: 404,
      message: 'Invitation not found.',
    })
    expect(await invitationTo(pending, fresh._id)).toBeUndefined()

    // the one invited declines
    const declined = await invitationTo(declining, fresh._id)
    const answer = await app().inject({
      method: 'DELETE',
      url: `/api/v1/checkin/invitations/${declined?._id}`,
      headers: bearer(declining.token),
    })
    expect(answer.statusCode, answer.body).toBe(200)
    expect(refusalOf(await accept(declining, declined?._id ?? ''))).toEqual({
      status: 404,
      message: 'Invitation not found.',
    })

    // a member removed can no longer scan
    const ticket = await buy(app(), buyer(1), fresh, 'VIP', 1)
    const [pass] = await passesOf(ticket, buyer(1))
    expect((await scanned(member, fresh._id, [scanOf(pass?.code ?? '', 'member')]))[0]?.result).toBe(
      'admitted',
    )
    const entry = await byEmail(member)
    expect((await remove(entry)).statusCode).toBe(200)
    expect((await sendScans(member, fresh._id, [scanOf(pass?.code ?? '')])).statusCode).toBe(403)
    expect((await get(app(), `/api/v1/checkin/${fresh._id}/manifest`, member)).statusCode).toBe(403)
    expect(await staffList(fresh._id)).toEqual([])
    expect(refusalOf(await remove(entry))).toEqual({
      status: 404,
      message: 'This account is not door staff of this event.',
    })
  })

  it(`are at most ${MAX_DOOR_STAFF} an event, invited or accepted`, async () => {
    const fresh = await freshEvent('Crowded Door')
    for (let i = 0; i < MAX_DOOR_STAFF; i++)
      expect((await invite(organizer, fresh._id, `crowd-${i}-${Date.now()}@example.com`)).statusCode).toBe(
        202,
      )
    expect(refusalOf(await invite(organizer, fresh._id, `one-more-${Date.now()}@example.com`))).toEqual({
      status: 409,
      message: `An event has at most ${MAX_DOOR_STAFF} door staff and invitations: remove some first.`,
    })
  })

  it('are managed by the organizer and the admins only', async () => {
    const statuses: Record<string, number> = {}
    for (const [name, as] of [
      ['organizer', organizer],
      ['admin', admin],
      ['door staff', door],
      ['another organizer', rival],
      ['a random user', stranger],
    ] as const) {
      statuses[`GET ${name}`] = (await get(app(), `/api/v1/checkin/${event._id}/door-staff`, as)).statusCode
      const invited = await invite(as, event._id, `managed-${Date.now()}@example.com`)
      statuses[`POST ${name}`] = invited.statusCode
      if (invited.statusCode === 202) {
        const entry = (await staffList(event._id)).find((e) => e.status === 'invited') as DoorStaffEntry
        const removed = await app().inject({
          method: 'DELETE',
          url: `/api/v1/checkin/${event._id}/door-staff/${entry._id}`,
          headers: bearer(as.token),
        })
        expect(removed.statusCode, removed.body).toBe(200)
      } else {
        expect(invited.json().message).toMatch(/organizer|access/)
      }
    }
    expect(statuses).toEqual({
      'GET organizer': 200,
      'POST organizer': 202,
      'GET admin': 200,
      'POST admin': 202,
      'GET door staff': 403,
      'POST door staff': 403,
      'GET another organizer': 403,
      'POST another organizer': 403,
      'GET a random user': 403,
      'POST a random user': 403,
    })
  })

  it('added before invitations existed are read as invitations to accept; a rebuild of the read models gives the same rows', async () => {
    const fresh = await freshEvent('Old Door')
    const [kept, dropped] = [await signUp(app(), 'OldKept'), await signUp(app(), 'OldDropped')]
    // the facts of an older version of the app, which added accounts to the door staff directly
    const stream = `event-${fresh._id}`
    let version = (await app().platform.ledger.readStream(stream)).length
    const at = new Date().toISOString()
    for (const [type, who] of [
      ['DoorStaffAdded', kept],
      ['DoorStaffAdded', dropped],
      ['DoorStaffRemoved', dropped],
    ] as const) {
      await dbRun(
        app(),
        'INSERT INTO ledger (stream, version, type, data, meta, at) VALUES (?, ?, ?, ?, ?, ?)',
        stream,
        ++version,
        type,
        JSON.stringify({ eventId: fresh._id, accountId: who.id, by: organizer.id }),
        JSON.stringify({ actor: organizer.id }),
        at,
      )
    }
    await rebuildStore(app())
    const tables = ['door_invitations', 'events']
    const dump = () => Promise.all(tables.map((t) => dbRows(app(), `SELECT * FROM "${t}" ORDER BY 1`)))

    // not door staff until it accepts: its e-mail is read from its account
    expect((await get(app(), `/api/v1/checkin/${fresh._id}/manifest`, kept)).statusCode).toBe(403)
    expect(await staffList(fresh._id)).toEqual([
      {
        _id: kept.id,
        email: kept.email,
        status: 'invited',
        invitedAt: at,
        acceptedAt: null,
        accountId: null,
        username: null,
      },
    ])
    expect(await invitationTo(dropped, fresh._id)).toBeUndefined()
    const invitation = await invitationTo(kept, fresh._id)
    expect(invitation?._id).toBe(kept.id)
    expect((await accept(kept, invitation?._id ?? '')).statusCode).toBe(200)
    expect((await manifestOf(fresh._id, kept)).statusCode).toBe(200)

    // the live read models are what a replay of the ledger makes of it
    const live = await dump()
    await rebuildStore(app())
    expect(await dump()).toEqual(live)
  })
})

describe('GET /checkin/{eventId}/manifest', () => {
  it('lists every pass of the current versions (void ones too), older versions as voided, the ledger head', async () => {
    const fresh = await doorEvent('Manifest Night')
    const kept = await buy(app(), buyer(0), fresh, 'VIP', 2)
    const moved = await buy(app(), buyer(1), fresh, 'General Admission', 1)
    const dropped = await buy(app(), buyer(2), fresh, 'General Admission', 1)
    const [used] = await passesOf(kept, buyer(0))
    const sent = scanOf(used?.code ?? '', 'door-9', scene(5, 0))
    await scanned(door, fresh._id, [sent])
    await transfer(app(), buyer(1), moved, buyer(3))
    await transfer(app(), buyer(3), moved, buyer(4))
    await cancel(app(), buyer(2), dropped)
    const head = await app().platform.ledger.head()
    const manifest = (await manifestOf(fresh._id, door)).json() as Manifest
    expect(manifest).toMatchObject({ eventId: fresh._id, title: 'Manifest Night' })
    // when the door opens, for a door deciding offline: 24 hours before the start
    const start = instantIn(fresh.date, fresh.time, server.config.timeZone).getTime()
    expect(manifest.opensAt).toBe(new Date(start - 24 * 3_600_000).toISOString())
    expect(manifest.position).toBeGreaterThanOrEqual(head)
    expect(Date.parse(manifest.generatedAt)).toBeGreaterThan(Date.now() - 60_000)
    expect(manifest.ticketTypes).toEqual(['General Admission', 'VIP'])
    const byId = [...manifest.passes].sort((x, y) => (x[0] < y[0] ? -1 : 1))
    const expected: Manifest['passes'] = [
      [`${kept}.1.0`, 1, Date.parse(sent.scannedAt), 1, 'Asha'],
      [`${kept}.2.0`, 0, null, 1, 'Asha'],
      [`${moved}.1.2`, 0, null, 0, 'Esha'],
      [`${dropped}.1.0`, 2, null, 0, 'Chitra'],
    ]
    expect(byId).toEqual(expected.sort((x, y) => (x[0] < y[0] ? -1 : 1)))
    expect([...manifest.voided].sort()).toEqual([`${moved}.1.0`, `${moved}.1.1`])
  })

  it('stays small for many passes: 2,000 passes in under 70 bytes each', async () => {
    const big = await doorEvent('Big Night')
    for (let i = 0; i < 20; i++) await buy(app(), buyer(i % buyers.length), big, 'General Admission', 100)
    const res = await manifestOf(big._id, door)
    const manifest = res.json() as Manifest
    expect(manifest.passes).toHaveLength(2000)
    expect(new Set(manifest.passes.map((p) => p[0])).size).toBe(2000)
    const bytes = Buffer.byteLength(res.body)
    console.info(
      `manifest: ${manifest.passes.length} passes in ${bytes} bytes (${(bytes / 2000).toFixed(1)} per pass)`,
    )
    expect(bytes / manifest.passes.length).toBeLessThan(70)
  })

  it('is for those who may scan the event', async () => {
    const statuses: Record<string, number> = {}
    for (const [name, as] of [
      ['organizer', organizer],
      ['door staff', door],
      ['admin', admin],
      ['door staff of another event', rivalDoor],
      ['a random user', stranger],
    ] as const) {
      statuses[name] = (await get(app(), `/api/v1/checkin/${event._id}/manifest`, as)).statusCode
    }
    expect(statuses).toEqual({
      organizer: 200,
      'door staff': 200,
      admin: 200,
      'door staff of another event': 403,
      'a random user': 403,
    })
  })
})

describe('GET /checkin/{eventId}/summary', () => {
  it('counts admitted and expected per ticket type, admissions per minute, and lists double entries', async () => {
    const fresh = await doorEvent('Summary Night')
    const vip = await buy(app(), buyer(0), fresh, 'VIP', 3)
    const ga = await buy(app(), buyer(1), fresh, 'General Admission', 2)
    const gone = await buy(app(), buyer(2), fresh, 'General Admission', 4)
    await cancel(app(), buyer(2), gone)
    const [v1, v2] = await passesOf(vip, buyer(0))
    const [g1] = await passesOf(ga, buyer(1))
    await scanned(door, fresh._id, [
      scanOf(v1?.code ?? '', 'a', scene(0, 10)),
      scanOf(v2?.code ?? '', 'a', scene(0, 50)),
      scanOf(g1?.code ?? '', 'b', scene(1, 30)),
      scanOf(g1?.code ?? '', 'c', scene(2, 0)),
    ])
    expect(await summaryOf(fresh._id, door)).toEqual({
      eventId: fresh._id,
      ticketTypes: [
        { ticketType: 'General Admission', admitted: 1, expected: 2 },
        { ticketType: 'VIP', admitted: 2, expected: 3 },
      ],
      perMinute: [
        { minute: minuteOf(scene(0, 0)), admitted: 2 },
        { minute: minuteOf(scene(1, 0)), admitted: 1 },
      ],
      doubleEntries: [
        {
          passId: `${ga}.1.0`,
          device: 'c',
          scannedAt: scene(2, 0),
          firstDevice: 'b',
          firstAdmittedAt: scene(1, 30),
          holder: 'Bala',
        },
      ],
    })
    const empty = await approvedEvent(app(), organizer, admin, { title: 'Quiet Night' }, plenty)
    expect(await summaryOf(empty._id)).toEqual({
      eventId: empty._id,
      ticketTypes: [
        { ticketType: 'General Admission', admitted: 0, expected: 0 },
        { ticketType: 'VIP', admitted: 0, expected: 0 },
      ],
      perMinute: [],
      doubleEntries: [],
    })
    expect((await get(app(), `/api/v1/checkin/${fresh._id}/summary`, stranger)).statusCode).toBe(403)
  })
})

describe('the live check-in summary', () => {
  const pushesOn = (socket: Socket) => {
    const heard: LivePush[] = []
    socket.on('fact', (push: LivePush) => heard.push(push))
    return heard
  }

  it('reaches the organizer’s dashboard as scans arrive, as of the latest scan, and not other organizers', async () => {
    const fresh = await doorEvent('Live Night')
    const ticket = await buy(app(), buyer(3), fresh, 'VIP', 2)
    const passes = await passesOf(ticket, buyer(3))
    const mine = pushesOn(await open(server.url, organizer.token))
    const theirs = pushesOn(await open(server.url, rival.token))
    const summaries = () => mine.filter((p) => p.type === 'checkin-summary' && p.data.eventId === fresh._id)
    await scanned(door, fresh._id, [scanOf(passes[0]?.code ?? '', 'a'), scanOf(passes[0]?.code ?? '', 'b')])
    const latest = (await ledgerFacts(app())).filter((f) => f.stream === `order-${ticket}`).at(-1)
    expect(latest?.type).toBe('PassScanRefused')
    await until(() => summaries().some((p) => p.position === latest?.position))
    const push = summaries().at(-1) as LivePush<CheckinSummary>
    expect(push.stream).toBe(`order-${ticket}`)
    expect(push.data).toEqual(await summaryOf(fresh._id))
    expect(push.data.ticketTypes).toContainEqual({ ticketType: 'VIP', admitted: 1, expected: 2 })
    expect(push.data.doubleEntries).toHaveLength(1)
    // another scan: a newer summary
    await scanned(door, fresh._id, [scanOf(passes[1]?.code ?? '', 'a')])
    await until(() => summaries().some((p) => (p.data as CheckinSummary).ticketTypes[1]?.admitted === 2))
    expect(theirs.filter((p) => p.type === 'checkin-summary')).toEqual([])
  })
})
