// The schedule over HTTP (API.md /schedule and /notify; SPEC §2 add-session form and Event
// Schedule, §3 Session, §5, §8): sessions with their validation and visibility, and notices that
// reach every attendee once by mail (the real notifications and mail workers on BullMQ, delivered
// to a real SMTP server) and live on their own sockets.
import { Queue } from 'bullmq'
import type { SMTPServerDataStream } from 'smtp-server'
import { SMTPServer } from 'smtp-server'
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { LivePush, NoticePush, SessionPush } from '../../contracts/live.ts'
import type { SessionView } from '../../contracts/schedule.ts'
import { newId } from '../../server/ids.ts'
import { notificationsProcessor } from '../../workers/notifications.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import {
  approvedEvent,
  buy,
  cancel,
  failToPay,
  get,
  hold,
  post,
  review,
  signUpAll,
  submitEvent,
  transfer,
  until,
} from '../support/sales.ts'
import { freePort, startServer, type TestServer } from '../support/server.ts'

/** A real SMTP server on a free port that keeps every message it is given. */
type Received = { from: string; to: string[]; subject: string; text: string }

async function startSmtpSink(): Promise<{ port: number; mails: Received[]; close(): Promise<void> }> {
  const mails: Received[] = []
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream: SMTPServerDataStream, session, callback) {
      const parts: Buffer[] = []
      stream.on('data', (chunk: Buffer) => parts.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(parts).toString('utf8')
        const split = raw.indexOf('\r\n\r\n')
        const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
        const body = raw.slice(split + 4)
        const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? ''
        const qp = /quoted-printable/i.test(header('Content-Transfer-Encoding'))
        const text = qp
          ? Buffer.from(
              body
                .replace(/=\r\n/g, '')
                .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
                  String.fromCharCode(Number.parseInt(hex, 16)),
                ),
              'latin1',
            ).toString('utf8')
          : body
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: header('Subject'),
          text: text.replace(/\r\n/g, '\n').replace(/\u202f/g, ' '),
        })
        callback()
      })
    },
  })
  const port = await freePort()
  await new Promise<void>((resolve) => sink.listen(port, '127.0.0.1', () => resolve()))
  return { port, mails, close: () => new Promise<void>((resolve) => sink.close(() => resolve())) }
}

let smtp: Awaited<ReturnType<typeof startSmtpSink>>
let server: TestServer
let admin: Session
let organizer: Session
const sockets: Socket[] = []
const queues: Queue[] = []

beforeAll(async () => {
  smtp = await startSmtpSink()
  server = await startServer({ RATE_LIMITS: 'off', SMTP_URL: `smtp://127.0.0.1:${smtp.port}` })
  admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'Meera')
})
afterAll(async () => {
  for (const s of sockets) s.disconnect()
  for (const q of queues) await q.close()
  await server.close()
  await smtp.close()
})

const session = (body: Record<string, unknown>, as: Session | null = organizer) =>
  post(server.app, '/api/v1/schedule', as, body)

const keynote = (eventId: string, extra: Record<string, unknown> = {}) => ({
  eventId,
  sessionTitle: 'Opening Keynote',
  description: 'Why live music matters.',
  startTime: '2030-03-15T10:00',
  endTime: '2030-03-15T11:30',
  speakers: [
    { name: 'Anoushka Rao', bio: 'Sitar player and composer.' },
    { name: 'Vikram Iyer', bio: 'Sound engineer.' },
  ],
  location: 'Main Stage',
  ...extra,
})

/** Opens a Socket.IO client as the given account (or as a visitor). */
async function socketOf(as: Session | null): Promise<{ socket: Socket; pushes: LivePush[] }> {
  const socket = connect(server.url, {
    auth: as ? { token: as.token } : {},
    transports: ['websocket'],
    reconnection: false,
  })
  sockets.push(socket)
  const pushes: LivePush[] = []
  socket.on('fact', (push: LivePush) => pushes.push(push))
  await new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(undefined))
    socket.once('connect_error', reject)
  })
  return { socket, pushes }
}

const queueOf = (name: string) => {
  const queue = new Queue(name, {
    connection: { host: '127.0.0.1', port: 6379 },
    prefix: server.config.queuePrefix,
  })
  queues.push(queue)
  return queue
}

/** Waits until the queues have nothing waiting, delayed or running. */
async function drained(...names: string[]) {
  for (const name of names) {
    const queue = queueOf(name)
    await until(async () => {
      const counts = await queue.getJobCounts(
        'waiting',
        'active',
        'delayed',
        'prioritized',
        'waiting-children',
      )
      return Object.values(counts).every((n) => n === 0)
    }, 15_000)
  }
}

describe('POST /api/v1/schedule', () => {
  let event: EventView
  beforeAll(async () => {
    event = await approvedEvent(server.app, organizer, admin, { title: 'Monsoon Music Fest' })
  })

  it("adds a session to the organizer's own event: 201 with the session, one SessionScheduled fact, one row", async () => {
    const res = await session(keynote(event._id, { sessionTitle: '  Opening Keynote  ' }))

    expect(res.statusCode, res.body).toBe(201)
    const body = res.json() as SessionView
    expect(body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      eventId: event._id,
      eventTitle: 'Monsoon Music Fest',
      sessionTitle: 'Opening Keynote',
      description: 'Why live music matters.',
      startTime: '2030-03-15T10:00',
      endTime: '2030-03-15T11:30',
      speakers: [
        { name: 'Anoushka Rao', bio: 'Sitar player and composer.' },
        { name: 'Vikram Iyer', bio: 'Sound engineer.' },
      ],
      location: 'Main Stage',
    })
    const facts = await server.app.platform.ledger.readStream(`session-${body._id}`)
    expect(facts.map((f) => [f.type, f.meta.actor])).toEqual([['SessionScheduled', organizer.id]])
    expect(facts[0]?.data).toEqual({
      sessionId: body._id,
      eventId: event._id,
      organizerId: organizer.id,
      sessionTitle: 'Opening Keynote',
      description: 'Why live music matters.',
      startTime: '2030-03-15T10:00',
      endTime: '2030-03-15T11:30',
      speakers: body.speakers,
      location: 'Main Stage',
    })
    expect(await server.app.platform.store.queries.schedule.byId(body._id)).toMatchObject({
      eventId: event._id,
      organizerId: organizer.id,
      sessionTitle: 'Opening Keynote',
      speakers: body.speakers,
    })
  })

  it('needs only a title, a start and an end: description, speakers and location default to empty', async () => {
    const res = await session({
      eventId: event._id,
      sessionTitle: 'Soundcheck',
      startTime: '2030-03-15T08:00:00.000Z',
      endTime: '2030-03-15T14:30:00+05:30',
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ description: '', speakers: [], location: '' })
  })

  it('hides the event from another organizer (404), refuses users and admins (403) and visitors (401); nothing stored', async () => {
    const head = await server.app.platform.ledger.head()
    const other = await session(keynote(event._id), await organizerSession(server.app))
    expect(other.statusCode).toBe(404)
    expect(other.json()).toEqual({ message: 'Event not found.' })
    const unknown = await session(keynote(newId()))
    expect(unknown.statusCode).toBe(404)
    const user = await session(keynote(event._id), await signUp(server.app))
    expect(user.statusCode).toBe(403)
    expect(user.json()).toEqual({ message: 'You are not allowed to do this.' })
    expect((await session(keynote(event._id), admin)).statusCode).toBe(403)
    const visitor = await session(keynote(event._id), null)
    expect(visitor.statusCode).toBe(401)
    expect(visitor.json()).toEqual({ message: 'Please log in to continue.' })
    const facts = await server.app.platform.ledger.readFrom(head, 1000)
    expect(facts.filter((f) => f.type === 'SessionScheduled')).toEqual([])
  })

  it.each([
    ['sessionTitle', { sessionTitle: undefined }, 'Session title is required.'],
    ['sessionTitle', { sessionTitle: '   ' }, 'Session title is required.'],
    ['startTime', { startTime: undefined }, 'Start time is required.'],
    ['startTime', { startTime: '' }, 'Start time is required.'],
    ['endTime', { endTime: undefined }, 'End time is required.'],
    ['endTime', { endTime: '2030-03-15T09:00' }, 'The end time must be after the start time.'],
    ['endTime', { endTime: '2030-03-15T10:00' }, 'The end time must be after the start time.'],
    [
      'startTime',
      { startTime: 'tomorrow morning' },
      'Start time must be a date and time (YYYY-MM-DDTHH:MM).',
    ],
    ['endTime', { endTime: '15/03/2030 11:30' }, 'End time must be a date and time (YYYY-MM-DDTHH:MM).'],
    ['startTime', { startTime: '2030-13-01T10:00' }, 'Start time must be a real date and time.'],
    ['startTime', { startTime: '2030-03-15T25:00' }, 'Start time must be a real date and time.'],
    [
      'speakers.0.name',
      { speakers: [{ name: '', bio: 'Plays the veena.' }] },
      'Please provide both name and bio for the speaker.',
    ],
    [
      'speakers.0.bio',
      { speakers: [{ name: 'Anoushka Rao', bio: '  ' }] },
      'Please provide both name and bio for the speaker.',
    ],
  ])('answers 400 naming %s for %j', async (field, change, message) => {
    const head = await server.app.platform.ledger.head()
    const res = await session(keynote(event._id, change))
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toMatchObject({ message, issues: expect.arrayContaining([{ field, message }]) })
    expect(await server.app.platform.ledger.head()).toBe(head)
  })

  it("refuses a speaker without a name or a bio key with SPEC's message 'Please provide both name and bio for the speaker.'", async () => {
    for (const speaker of [{ bio: 'Plays the veena.' }, { name: 'Anoushka Rao' }]) {
      const res = await session(keynote(event._id, { speakers: [speaker] }))
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json().message).toBe('Please provide both name and bio for the speaker.')
    }
  })

  it('refuses a calendar date that does not exist (30 February, 31 April) as a bad date and time', async () => {
    for (const startTime of ['2030-02-30T10:00', '2030-04-31T10:00']) {
      const res = await session(keynote(event._id, { startTime, endTime: '2030-05-01T10:00' }))
      expect(res.statusCode, `${startTime}: ${res.body}`).toBe(400)
      expect(res.json().issues).toEqual([
        { field: 'startTime', message: 'Start time must be a real date and time.' },
      ])
    }
  })

  it('accepts sessions on its own pending event', async () => {
    const pending = await submitEvent(server.app, organizer, { title: 'Still Pending' })
    const res = await session(keynote(pending._id))
    expect(res.statusCode, res.body).toBe(201)
  })
})

describe('GET /api/v1/schedule', () => {
  let shown: EventView
  let alsoShown: EventView
  let pending: EventView
  let rejected: EventView
  const ids: Record<string, string> = {}
  let hostSession: Session

  beforeAll(async () => {
    const host = await organizerSession(server.app, 'Kiran')
    shown = await approvedEvent(server.app, host, admin, { title: 'Shown One' })
    alsoShown = await approvedEvent(server.app, organizer, admin, { title: 'Shown Two' })
    pending = await submitEvent(server.app, host, { title: 'Hidden Pending' })
    rejected = await submitEvent(server.app, host, { title: 'Hidden Rejected' })
    const add = async (
      as: Session,
      eventId: string,
      sessionTitle: string,
      startTime: string,
      endTime: string,
    ) => {
      const res = await session({ eventId, sessionTitle, startTime, endTime }, as)
      expect(res.statusCode, res.body).toBe(201)
      ids[sessionTitle] = res.json()._id
    }
    await add(host, shown._id, 'Late', '2031-05-02T18:00', '2031-05-02T19:00')
    await add(host, shown._id, 'Early', '2031-05-01T09:00', '2031-05-01T10:00')
    await add(organizer, alsoShown._id, 'Middle', '2031-05-01T12:00', '2031-05-01T13:00')
    await add(host, pending._id, 'Secret', '2031-05-01T08:00', '2031-05-01T09:00')
    await add(host, rejected._id, 'Scrapped', '2031-05-01T08:00', '2031-05-01T09:00')
    await review(server.app, admin, rejected._id, 'Rejected')
    hostSession = host
  })

  it('lists the sessions of approved events only, to anyone, earliest first', async () => {
    const res = await get(server.app, '/api/v1/schedule')
    expect(res.statusCode).toBe(200)
    const list = res.json() as SessionView[]
    const mine = list.filter((s) => [shown._id, alsoShown._id, pending._id, rejected._id].includes(s.eventId))
    expect(mine.map((s) => s.sessionTitle)).toEqual(['Early', 'Middle', 'Late'])
    expect(mine[0]).toEqual({
      _id: ids.Early,
      eventId: shown._id,
      eventTitle: 'Shown One',
      sessionTitle: 'Early',
      description: '',
      startTime: '2031-05-01T09:00',
      endTime: '2031-05-01T10:00',
      speakers: [],
      location: '',
    })
    expect(list.every((s) => s.sessionTitle !== 'Secret' && s.sessionTitle !== 'Scrapped')).toBe(true)
    // Signed in makes no difference to the whole list.
    const asHost = (await get(server.app, '/api/v1/schedule', hostSession)).json() as SessionView[]
    expect(asHost.map((s) => s._id)).toEqual(list.map((s) => s._id))
  })

  it('filters by ?eventId=', async () => {
    const res = await get(server.app, `/api/v1/schedule?eventId=${shown._id}`)
    expect(res.statusCode).toBe(200)
    expect((res.json() as SessionView[]).map((s) => s._id)).toEqual([ids.Early, ids.Late])
    expect((await get(server.app, `/api/v1/schedule?eventId=${newId()}`)).json()).toEqual([])
    const bad = await get(server.app, '/api/v1/schedule?eventId=..%2Fetc')
    expect(bad.statusCode).toBe(400)
  })

  it("shows a pending event's sessions to its organizer and the admin only", async () => {
    const url = `/api/v1/schedule?eventId=${pending._id}`
    expect((await get(server.app, url, hostSession)).json().map((s: SessionView) => s._id)).toEqual([
      ids.Secret,
    ])
    expect((await get(server.app, url, admin)).json().map((s: SessionView) => s._id)).toEqual([ids.Secret])
    for (const as of [null, organizer, await signUp(server.app)]) {
      const res = await get(server.app, url, as)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual([])
    }
    const rejectedUrl = `/api/v1/schedule?eventId=${rejected._id}`
    expect((await get(server.app, rejectedUrl)).json()).toEqual([])
  })

  it('pushes a new session of an approved event to watchers of the schedule and of the event, once each', async () => {
    const calendar = await socketOf(null)
    expect(await calendar.socket.emitWithAck('watch', 'schedule')).toEqual({ ok: true, room: 'schedule' })
    const detail = await socketOf(null)
    await detail.socket.emitWithAck('watch', `event-${alsoShown._id}`)

    const res = await session(
      {
        eventId: alsoShown._id,
        sessionTitle: 'Encore',
        startTime: '2031-05-03T20:00',
        endTime: '2031-05-03T21:00',
      },
      organizer,
    )

    expect(res.statusCode).toBe(201)
    const expected = {
      sessionId: res.json()._id,
      eventId: alsoShown._id,
      sessionTitle: 'Encore',
      startTime: '2031-05-03T20:00',
      endTime: '2031-05-03T21:00',
    }
    for (const watcher of [calendar, detail]) {
      await until(() => watcher.pushes.some((p) => p.type === 'SessionScheduled'))
    }
    await new Promise((r) => setTimeout(r, 200))
    for (const watcher of [calendar, detail]) {
      const pushes = watcher.pushes.filter((p) => p.type === 'SessionScheduled')
      expect(pushes.map((p) => p.data as SessionPush)).toEqual([expected])
      expect(pushes[0]?.stream).toBe(`session-${expected.sessionId}`)
    }
  })

  it("pushes nothing of a pending event's new session to the public schedule or event rooms", async () => {
    const visitor = await socketOf(null)
    await visitor.socket.emitWithAck('watch', 'schedule')
    const secret = await submitEvent(server.app, hostSession, { title: 'Unannounced' })
    await visitor.socket.emitWithAck('watch', `event-${secret._id}`)

    const hidden = await session(
      {
        eventId: secret._id,
        sessionTitle: 'Surprise Guest',
        startTime: '2031-05-03T20:00',
        endTime: '2031-05-03T21:00',
      },
      hostSession,
    )

    expect(hidden.statusCode).toBe(201)
    // A later public session, so the visitor has certainly heard everything before it.
    const later = await session(
      {
        eventId: shown._id,
        sessionTitle: 'Afterparty',
        startTime: '2031-05-04T22:00',
        endTime: '2031-05-04T23:00',
      },
      hostSession,
    )
    await until(() => visitor.pushes.some((p) => p.data.sessionId === later.json()._id))
    expect(visitor.pushes.filter((p) => p.data.eventId === secret._id)).toEqual([])
    expect(JSON.stringify(visitor.pushes)).not.toContain('Surprise Guest')
  })
})

describe('POST /api/v1/notify', () => {
  it('refuses another organizer (404), users (403) and visitors (401), and bad times (400)', async () => {
    const event = await approvedEvent(server.app, organizer, admin, { title: 'Guarded Notices' })
    const body = { eventId: event._id, startTime: '2030-03-15T10:00', endTime: '2030-03-15T11:00' }
    const notify = (as: Session | null, payload: Record<string, unknown> = body) =>
      post(server.app, '/api/v1/notify', as, payload)
    expect((await notify(await organizerSession(server.app))).statusCode).toBe(404)
    expect((await notify(await signUp(server.app))).statusCode).toBe(403)
    expect((await notify(null)).statusCode).toBe(401)
    const backwards = await notify(organizer, { ...body, endTime: '2030-03-15T09:00' })
    expect(backwards.statusCode).toBe(400)
    expect(backwards.json().issues).toEqual([
      { field: 'endTime', message: 'The end time must be after the start time.' },
    ])
    expect((await notify(organizer, { eventId: event._id })).statusCode).toBe(400)
    const posted = (await server.app.platform.ledger.readFrom(0, 100_000)).filter(
      (f) => f.type === 'ScheduleNoticePosted' && (f.data as { eventId: string }).eventId === event._id,
    )
    expect(posted).toEqual([])
  })

  it('mails every attendee of the event once, through the workers and SMTP, and tells the online ones live; a re-run mails nobody twice', async () => {
    const event = await approvedEvent(server.app, organizer, admin, { title: 'Jazz by the Lake' })
    const other = await approvedEvent(server.app, organizer, admin, { title: 'Another Night' })
    const [anu, bhavna, chetan, divya, ehsan, fatima, gautam, hema] = await signUpAll(server.app, [
      'Anu',
      'Bhavna',
      'Chetan',
      'Divya',
      'Ehsan',
      'Fatima',
      'Gautam',
      'Hema',
    ])
    await buy(server.app, anu, event, 'VIP', 1)
    await buy(server.app, bhavna, event, 'General Admission', 2)
    await buy(server.app, bhavna, event, 'VIP', 1) // two tickets, still one mail
    await transfer(server.app, chetan, await buy(server.app, chetan, event, 'VIP', 1), divya)
    await cancel(server.app, ehsan, await buy(server.app, ehsan, event, 'VIP', 1))
    await hold(server.app, fatima, event, 'VIP', 1)
    await failToPay(server.app, gautam, event, 'VIP', 1)
    await buy(server.app, hema, other, 'VIP', 1)
    const attendees = [anu, bhavna, divya]
    const others = [chetan, ehsan, fatima, gautam, hema, organizer]
    const online = new Map<string, LivePush[]>()
    for (const person of [...attendees, ...others]) online.set(person.id, (await socketOf(person)).pushes)
    await drained('mail') // the booking mails are out of the way
    const before = smtp.mails.length

    const res = await post(server.app, '/api/v1/notify', organizer, {
      eventId: event._id,
      startTime: '2030-03-15T04:30:00.000Z',
      endTime: '2030-03-15T06:00:00.000Z',
    })

    expect(res.statusCode, res.body).toBe(202)
    expect(res.json()).toEqual({ message: expect.any(String) })
    const posted = (await server.app.platform.ledger.readFrom(0, 100_000)).filter(
      (f) => f.type === 'ScheduleNoticePosted' && (f.data as { eventId: string }).eventId === event._id,
    )
    expect(posted).toHaveLength(1)
    const notice = posted[0]?.data as {
      noticeId: string
      eventId: string
      startTime: string
      endTime: string
    }
    expect(notice).toEqual({
      noticeId: expect.any(String),
      eventId: event._id,
      organizerId: organizer.id,
      startTime: '2030-03-15T04:30:00.000Z',
      endTime: '2030-03-15T06:00:00.000Z',
    })
    expect(posted[0]?.stream).toBe(`notice-${notice.noticeId}`)

    const notices = () =>
      smtp.mails.slice(before).filter((m) => m.subject === 'Schedule for Jazz by the Lake')
    await until(() => notices().length >= attendees.length, 15_000)
    await drained('notifications', 'mail')
    const mailed = notices()
    expect(mailed.flatMap((m) => m.to).sort()).toEqual(attendees.map((a) => a.email).sort())
    for (const mail of mailed) {
      const person = attendees.find((a) => mail.to.includes(a.email)) as Session
      expect(mail.text).toContain(`Hello ${person.username},`)
      expect(mail.text).toContain('A session of Jazz by the Lake is scheduled:')
      expect(mail.text).toContain('From: 15 Mar 2030, 10:00 am')
      expect(mail.text).toContain('To: 15 Mar 2030, 11:30 am')
      expect(mail.text).toContain(`${server.url}/schedule`)
    }

    // Live: a notice on each attendee's own socket, nothing on anyone else's.
    await until(() =>
      attendees.every((a) => online.get(a.id)?.some((p) => p.type === 'ScheduleNoticePosted')),
    )
    await new Promise((r) => setTimeout(r, 300))
    for (const a of attendees) {
      const pushes = (online.get(a.id) ?? []).filter((p) => p.type === 'ScheduleNoticePosted')
      expect(pushes.map((p) => p.data as NoticePush)).toEqual([
        {
          noticeId: notice.noticeId,
          eventId: event._id,
          eventTitle: 'Jazz by the Lake',
          startTime: '2030-03-15T04:30:00.000Z',
          endTime: '2030-03-15T06:00:00.000Z',
        },
      ])
    }
    for (const o of others) {
      expect((online.get(o.id) ?? []).filter((p) => p.type === 'ScheduleNoticePosted')).toEqual([])
    }

    // The notice job runs again (a retry), twice in this process and once more through the queue:
    // its mails are keyed by notice and attendee, so nobody gets a second one.
    const processor = notificationsProcessor({
      ...server.app.platform,
      ...server.app.services,
      events: server.app.services.catalog,
    })
    const job = { id: `notice-${notice.noticeId}`, name: 'announce', data: notice, attemptsMade: 1 }
    expect(await processor(job)).toEqual({ mailed: 3 })
    expect(await processor(job)).toEqual({ mailed: 3 })
    await server.app.platform.jobs.enqueue({
      queue: 'notifications',
      name: 'announce',
      data: notice,
      jobId: `notice-${notice.noticeId}-retried`,
    })
    const notifications = queueOf('notifications')
    await until(
      async () => (await notifications.getJob(`notice-${notice.noticeId}-retried`))?.finishedOn !== undefined,
    )
    await drained('notifications', 'mail')
    await new Promise((r) => setTimeout(r, 500))
    expect(notices()).toHaveLength(3)
    expect(
      notices()
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual(attendees.map((a) => a.email).sort())
  })

  it("states a session's times in the mail as the organizer entered them (a local date-time without zone)", async () => {
    const event = await approvedEvent(server.app, organizer, admin, { title: 'Local Time Gig' })
    const fan = await signUp(server.app, 'Ira')
    await buy(server.app, fan, event, 'VIP', 1)
    // The add-session form's datetime-local inputs send wall-clock times without a zone (the
    // schedule contract accepts them); the product's zone is the configured TIMEZONE.
    expect(server.config.timeZone).toBe('Asia/Kolkata')
    const res = await post(server.app, '/api/v1/notify', organizer, {
      eventId: event._id,
      startTime: '2030-03-15T10:00',
      endTime: '2030-03-15T11:30',
    })
    expect(res.statusCode).toBe(202)
    await until(() => smtp.mails.some((m) => m.subject === 'Schedule for Local Time Gig'), 15_000)
    const mail = smtp.mails.find((m) => m.subject === 'Schedule for Local Time Gig')
    expect(mail?.to).toEqual([fan.email])
    expect(mail?.text).toContain('From: 15 Mar 2030, 10:00 am')
    expect(mail?.text).toContain('To: 15 Mar 2030, 11:30 am')
  })
})
