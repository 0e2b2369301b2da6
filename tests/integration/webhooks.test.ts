// Webhooks (issue 43) on the real app and store (both, by the suite's projects), with a real HTTP
// receiver on this machine (allowed by WEBHOOKS_ALLOW_PRIVATE=on, as for local testing): an
// organizer adds an endpoint and gets its secret once; the facts it asked for arrive in ledger
// order, signed so the Standard Webhooks library verifies them; a failing receiver is tried again
// until it answers, a receiver that was down gets everything once back; a delivery can be sent
// again; an endpoint failing too long is turned off and its owner mailed, and is on again when a
// delivery of it is sent again; private destinations
// are refused without the setting, also when a name resolves to one at delivery time.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  MAX_WEBHOOKS,
  NO_CREDENTIALS_IN_URL,
  NO_PORT_ZERO,
  TOO_MANY_WEBHOOKS,
} from '../../contracts/webhooks.ts'
import { isPrivateAddress, postDelivery } from '../../server/integrations/webhooks.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { waitForMail } from '../support/outbox.ts'
import { approvedEvent, buy, cancel, get, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

type Received = { headers: IncomingMessage['headers']; body: string }

/** a receiver on 127.0.0.1 answering `status()` to each POST, keeping what it was sent */
async function receiver() {
  const received: Received[] = []
  let status = () => 200
  let delayMs = 0
  const listen = async (server: Server, port = 0) =>
    new Promise<number>((resolve) =>
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
    )
  const make = () =>
    createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => {
        body += chunk
      })
      req.on('end', () => {
        const code = status()
        setTimeout(() => {
          if (code >= 200 && code < 300) received.push({ headers: req.headers, body })
          res.writeHead(code).end('ok')
        }, delayMs)
      })
    })
  let server = make()
  const port = await listen(server)
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: (code: () => number, afterMs = 0) => {
      status = code
      delayMs = afterMs
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    restart: async () => {
      server = make()
      await listen(server, port)
    },
  }
}

let server: TestServer
const app = () => server.app
let admin: Session

beforeAll(async () => {
  server = await startServer({
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'error',
    WEBHOOKS_ALLOW_PRIVATE: 'on',
    WEBHOOK_TICK_MS: '50',
    WEBHOOK_RETRY_BASE_MS: '100',
  })
  admin = await adminSession(app())
}, 60_000)

afterAll(async () => {
  await server?.close()
})

const addEndpoint = async (who: Session, body: Record<string, unknown>, on = app()) =>
  on.inject({ method: 'POST', url: '/api/v1/organizer/webhooks', headers: bearer(who.token), payload: body })

describe('webhooks', () => {
  it('delivers the facts asked for, in order, signed so the Standard Webhooks library verifies them', async () => {
    const hooks = await receiver()
    const organizer = await organizerSession(app(), 'Hooked')
    const event = await approvedEvent(app(), organizer, admin)
    const added = await addEndpoint(organizer, { url: hooks.url, events: ['order.paid', 'order.cancelled'] })
    expect(added.statusCode, added.body).toBe(201)
    const { id, secret } = added.json()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect((await get(app(), '/api/v1/organizer/webhooks', organizer)).json()).toEqual([
      { id, url: hooks.url, events: ['order.paid', 'order.cancelled'], eventIds: null, disabledAt: null },
    ])
    const buyer = await signUp(app())
    const first = await buy(app(), buyer, event, 'VIP', 2)
    const second = await buy(app(), buyer, event, 'General Admission', 1)
    await cancel(app(), buyer, first)
    await until(() => hooks.received.length >= 3, 15_000)
    const verifier = new Webhook(secret)
    const payloads = hooks.received.map((r) =>
      verifier.verify(r.body, r.headers as Record<string, string>),
    ) as Array<{ id: string; type: string; position: number; at: string; data: Record<string, unknown> }>
    expect(payloads.map((p) => [p.type, p.data.ticketId])).toEqual([
      ['order.paid', first],
      ['order.paid', second],
      ['order.cancelled', first],
    ])
    expect(payloads[0]?.data).toMatchObject({ eventId: event._id, quantity: 2, totalAmount: 3000 })
    const positions = payloads.map((p) => p.position)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(hooks.received[0]?.headers['webhook-id']).toBe(payloads[0]?.id)
    // a body changed on the way is refused by the receiver's library
    expect(() =>
      verifier.verify(
        hooks.received[0]?.body.replace('order.paid', 'order.pain') ?? '',
        hooks.received[0]?.headers as Record<string, string>,
      ),
    ).toThrow()
    // each outcome is recorded after its answer: wait for the last one
    const log = async () =>
      (await get(app(), `/api/v1/organizer/webhooks/${id}/deliveries`, organizer)).json()
    const delivered = (d: { status: string; attempts: number; lastCode: number }) =>
      d.status === 'delivered' && d.attempts === 1 && d.lastCode === 200
    await until(async () => (await log()).filter(delivered).length === 3, 10_000)
    expect(await log()).toHaveLength(3)
    // another organizer sees none of it
    const stranger = await organizerSession(app(), 'Stranger')
    expect((await get(app(), `/api/v1/organizer/webhooks/${id}/deliveries`, stranger)).statusCode).toBe(404)
    await hooks.stop()
  })

  it('tries a failing receiver again until it answers, and one that was down gets everything once back', async () => {
    const hooks = await receiver()
    const organizer = await organizerSession(app(), 'Flaky')
    const event = await approvedEvent(app(), organizer, admin)
    const { id } = (await addEndpoint(organizer, { url: hooks.url, events: ['order.paid'] })).json()
    let calls = 0
    hooks.answer(() => (++calls <= 2 ? 500 : 200))
    const buyer = await signUp(app())
    const paid = await buy(app(), buyer, event, 'VIP', 1)
    await until(() => hooks.received.length === 1, 15_000)
    // the outcome is recorded after the answer: wait for it
    const firstDelivery = async () =>
      (await get(app(), `/api/v1/organizer/webhooks/${id}/deliveries`, organizer)).json()[0]
    await until(async () => (await firstDelivery())?.status === 'delivered', 10_000)
    const delivery = await firstDelivery()
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, lastCode: 200 })
    // down: nothing arrives, everything waits; back: all of it, in order, none twice
    await hooks.stop()
    const more = [await buy(app(), buyer, event, 'VIP', 1), await buy(app(), buyer, event, 'VIP', 1)]
    await new Promise((r) => setTimeout(r, 500))
    await hooks.restart()
    await until(() => hooks.received.length === 3, 20_000)
    expect(hooks.received.map((r) => JSON.parse(r.body).data.ticketId)).toEqual([paid, ...more])
    // sent again on request: the same delivery id
    const again = await app().inject({
      method: 'POST',
      url: `/api/v1/organizer/webhooks/${id}/deliveries/${delivery.id}/retry`,
      headers: bearer(organizer.token),
    })
    expect([again.statusCode, again.json().message]).toEqual([202, 'The delivery will be sent again.'])
    await until(() => hooks.received.length === 4, 10_000)
    expect(hooks.received[3]?.headers['webhook-id']).toBe(delivery.id)
    await hooks.stop()
  })

  it('lets no slow endpoint hold back another organizer’s deliveries: its run of a round ends once a tick has gone by', async () => {
    const [slow, fast] = [await receiver(), await receiver()]
    const [patient, other] = [
      await organizerSession(app(), 'Patient'),
      await organizerSession(app(), 'Brisk'),
    ]
    const [slowEvent, fastEvent] = [
      await approvedEvent(app(), patient, admin),
      await approvedEvent(app(), other, admin),
    ]
    expect((await addEndpoint(patient, { url: slow.url, events: ['order.paid'] })).statusCode).toBe(201)
    expect((await addEndpoint(other, { url: fast.url, events: ['order.paid'] })).statusCode).toBe(201)
    // six paid orders wait for the slow endpoint (refused meanwhile), then it answers each in 500 ms
    slow.answer(() => 503)
    const buyer = await signUp(app())
    for (let i = 0; i < 6; i++) await buy(app(), buyer, slowEvent, 'VIP', 1)
    slow.answer(() => 200, 500)
    await until(() => slow.received.length >= 1, 20_000)
    // the other organizer's order, paid while the slow endpoint's deliveries go out one by one
    await buy(app(), buyer, fastEvent, 'VIP', 1)
    await until(() => fast.received.length === 1, 10_000)
    // it did not wait for all six (3 s): each round gives the slow endpoint about one
    expect(slow.received.length).toBeLessThan(6)
    await until(() => slow.received.length === 6, 20_000)
    await slow.stop()
    await fast.stop()
  })

  it('removes an endpoint: nothing more is queued for it', async () => {
    const hooks = await receiver()
    const organizer = await organizerSession(app(), 'Remover')
    const event = await approvedEvent(app(), organizer, admin)
    const { id } = (await addEndpoint(organizer, { url: hooks.url, events: ['order.paid'] })).json()
    const removed = await app().inject({
      method: 'DELETE',
      url: `/api/v1/organizer/webhooks/${id}`,
      headers: bearer(organizer.token),
    })
    expect([removed.statusCode, removed.json().message]).toEqual([200, 'Webhook removed.'])
    await buy(app(), await signUp(app()), event, 'VIP', 1)
    await new Promise((r) => setTimeout(r, 800))
    expect(hooks.received).toHaveLength(0)
    expect((await get(app(), '/api/v1/organizer/webhooks', organizer)).json()).toEqual([])
    await hooks.stop()
  })

  it('keeps an organizer to MAX_WEBHOOKS endpoints at once; one removed makes room', async () => {
    const organizer = await organizerSession(app(), 'Hoarder')
    const add = () => addEndpoint(organizer, { url: 'https://hooks.example.com/in', events: ['order.paid'] })
    // added at once, as many processes might: exactly the allowance gets in
    const tries = await Promise.all(Array.from({ length: MAX_WEBHOOKS + 3 }, add))
    expect(tries.filter((r) => r.statusCode === 201)).toHaveLength(MAX_WEBHOOKS)
    for (const refused of tries.filter((r) => r.statusCode !== 201))
      expect([refused.statusCode, refused.json().message]).toEqual([409, TOO_MANY_WEBHOOKS])
    const listed = (await get(app(), '/api/v1/organizer/webhooks', organizer)).json() as Array<{ id: string }>
    expect(listed).toHaveLength(MAX_WEBHOOKS)
    const removed = await app().inject({
      method: 'DELETE',
      url: `/api/v1/organizer/webhooks/${listed[0]?.id}`,
      headers: bearer(organizer.token),
    })
    expect(removed.statusCode).toBe(200)
    expect((await add()).statusCode).toBe(201)
    expect([(await add()).statusCode]).toEqual([409])
  })
})

describe('where webhooks may go', () => {
  it('refuses private, loopback and metadata destinations without the setting', async () => {
    const strict = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error' })
    try {
      const organizer = await organizerSession(strict.app, 'Strict')
      for (const url of [
        'http://example.com/hooks',
        'https://127.0.0.1/x',
        'https://10.1.2.3/x',
        'https://169.254.169.254/latest',
        'https://[::1]/x',
        'https://localhost/x',
        // the same hosts written otherwise: a root's dot, the IPv4 forms, names kept for private networks
        'https://LOCALHOST./x',
        'https://[::127.0.0.1]/x',
        'https://[::ffff:127.0.0.1]/x',
        'https://[2002:a9fe:a9fe::]/latest',
        'https://2130706433/x',
        'https://metadata.google.internal/computeMetadata/v1/',
        'https://printer.local/x',
      ]) {
        const res = await addEndpoint(organizer, { url, events: ['order.paid'] }, strict.app)
        expect([url, res.statusCode]).toEqual([url, 400])
      }
      // a user name or password in the address would be kept and shown with it; port 0 is no port
      for (const [url, message] of [
        ['https://user:secret@hooks.example.com/in', NO_CREDENTIALS_IN_URL],
        ['https://hooks.example.com:0/in', NO_PORT_ZERO],
      ] as const) {
        const res = await addEndpoint(organizer, { url, events: ['order.paid'] }, strict.app)
        expect([res.statusCode, res.json().message]).toEqual([400, message])
      }
      expect(
        (
          await addEndpoint(
            organizer,
            { url: 'https://hooks.example.com/in', events: ['order.paid'] },
            strict.app,
          )
        ).statusCode,
      ).toBe(201)
    } finally {
      await strict.close()
    }
    for (const address of [
      '127.0.0.1',
      '10.0.0.8',
      '172.20.1.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::7f00:1',
      '100.64.0.1',
      // IPv6 forms that reach an IPv4 or a private network: 6to4 of the metadata address and of
      // 10.0.0.1, IPv4-translated 127.0.0.1, local-use NAT64, Teredo, site-local, discard-only
      '2002:a9fe:a9fe::',
      '2002:a00:1::',
      '::ffff:0:7f00:1',
      '::ffff:0:127.0.0.1',
      '64:ff9b:1::7f00:1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      'fec0::1',
      '100::1',
    ])
      expect([address, isPrivateAddress(address)]).toEqual([address, true])
    // a 6to4 address of a public IPv4 one (8.8.8.8) is the internet's
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2002:808:808::1'])
      expect([address, isPrivateAddress(address)]).toEqual([address, false])
    // at delivery time too: a name that resolves to a private address is refused after resolution
    const hooks = await receiver()
    const sent = await postDelivery(hooks.url.replace('127.0.0.1', 'localhost'), {}, '{}', {
      allowPrivate: false,
      timeoutMs: 2000,
    })
    expect(sent.ok).toBe(false)
    expect(sent.error).toMatch(/not a public address/)
    expect(hooks.received).toHaveLength(0)
    await hooks.stop()
  })

  it('turns off an endpoint failing too long and mails its owner', async () => {
    const giveUp = await startServer({
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'error',
      WEBHOOKS_ALLOW_PRIVATE: 'on',
      WEBHOOK_TICK_MS: '50',
      WEBHOOK_GIVE_UP_HOURS: '0',
    })
    const hooks = await receiver()
    hooks.answer(() => 503)
    try {
      const organizer = await organizerSession(giveUp.app, 'GivesUp')
      const event = await approvedEvent(giveUp.app, organizer, await adminSession(giveUp.app))
      const { id } = (
        await addEndpoint(organizer, { url: hooks.url, events: ['order.paid'] }, giveUp.app)
      ).json()
      await buy(giveUp.app, await signUp(giveUp.app), event, 'VIP', 1)
      await until(
        async () =>
          (await get(giveUp.app, '/api/v1/organizer/webhooks', organizer)).json()[0]?.disabledAt !== null,
        15_000,
      )
      const [delivery] = (
        await get(giveUp.app, `/api/v1/organizer/webhooks/${id}/deliveries`, organizer)
      ).json()
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastCode: 503 })
      const mail = await waitForMail(
        giveUp.config.outboxDir,
        (m) => m.to.includes(organizer.email) && /webhook/.test(m.subject),
      )
      expect(mail.text).toContain(hooks.url)
      // what it says to do is what turns it on again (below)
      expect(mail.text.replace(/\s+/g, ' ')).toContain(
        'ask for one of them again: that turns the webhook back on',
      )

      // its owner mends the receiver and sends the delivery again: the endpoint is on again, the
      // delivery goes out, and so does what is sold after
      hooks.answer(() => 200)
      const again = await giveUp.app.inject({
        method: 'POST',
        url: `/api/v1/organizer/webhooks/${id}/deliveries/${delivery.id}/retry`,
        headers: bearer(organizer.token),
      })
      expect(again.statusCode).toBe(202)
      expect(
        (await get(giveUp.app, '/api/v1/organizer/webhooks', organizer)).json()[0]?.disabledAt,
      ).toBeNull()
      await buy(giveUp.app, await signUp(giveUp.app), event, 'VIP', 1)
      await until(async () => hooks.received.length === 2, 15_000)
      const positions = hooks.received.map((r) => JSON.parse(r.body).position as number)
      expect(positions[0]).toBe(delivery.position)
      expect(positions[1]).toBeGreaterThan(positions[0] as number)
      // the receiver has the request before the sender records its answer: wait for the record
      const statuses = async () =>
        (await get(giveUp.app, `/api/v1/organizer/webhooks/${id}/deliveries`, organizer))
          .json()
          .map((d: { status: string }) => d.status)
      await until(async () => (await statuses()).every((s: string) => s === 'delivered'), 15_000)
      expect(await statuses()).toEqual(['delivered', 'delivered'])
    } finally {
      await hooks.stop()
      await giveUp.close()
    }
  })
})
