// Webhooks in the browser (issue 43), against the real server and the built web app, with a real
// receiver on this machine (allowed by WEBHOOKS_ALLOW_PRIVATE=on, as for local testing): an
// organizer opens the screen from their dashboard, sees a refused address at its field, adds an
// endpoint for order.paid and reads the signing secret shown once; a ticket bought reaches the
// receiver signed so the Standard Webhooks library verifies it; the screen lists the delivery as
// delivered, sends it again (the same webhook-id arrives again), and the endpoint is removed
// after a confirmation. The screen has no axe violation on the way.
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser, signedInPages } from '../support/browser.ts'
import { approvedEvent, buy, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

type Received = { headers: IncomingMessage['headers']; body: string }

/** a receiver on 127.0.0.1 answering 200 to each POST, keeping what it was sent */
async function receiver() {
  const received: Received[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      received.push({ headers: req.headers, body })
      res.writeHead(200).end('ok')
    })
  })
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  )
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

let server: TestServer
let browser: Browser
let organizer: Session
let admin: Session
let hooks: Awaited<ReturnType<typeof receiver>>
const pages = signedInPages(
  () => browser,
  () => server.url,
)

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', WEBHOOKS_ALLOW_PRIVATE: 'on', WEBHOOK_TICK_MS: '50' })
  browser = await launchBrowser()
  hooks = await receiver()
  organizer = await organizerSession(server.app, 'hookorganizer')
  admin = await adminSession(server.app)
})

afterAll(async () => {
  await pages.closeAll()
  await browser?.close()
  await hooks?.stop()
  await server?.close()
})

/** axe-core's violations on the page as it is now (WCAG 2.x A and AA, best practices) */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE)
  return page.evaluate(async () => {
    type Found = { id: string; help: string; nodes: { target: string[] }[] }
    const axe = (window as unknown as { axe: { run(d: Document): Promise<{ violations: Found[] }> } }).axe
    const { violations } = await axe.run(document)
    return violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  })
}

describe('webhooks in the browser', () => {
  it('adds an endpoint whose deliveries verify, lists them as delivered, sends one again, and removes it', async () => {
    const event = await approvedEvent(server.app, organizer, admin)
    const page = await pages.open(organizer.token)
    await page.goto('/organizers/dashboard')
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Webhooks' }).click()
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor()
    await page.getByText('No webhooks yet.').waitFor()
    await page.getByText('Someone is let in at the door').waitFor()
    expect(await violations(page)).toEqual([])

    // the form's own check names each field; the server's refusal shows at the field it names
    await page.getByRole('button', { name: 'Add webhook' }).click()
    await page.getByText('Choose at least one kind of event.').waitFor()
    await page.getByLabel('order.paid').check()
    await expect.poll(() => page.getByText('Choose at least one kind of event.').count()).toBe(0)
    const url = page.getByLabel('URL', { exact: true })
    await url.fill('ftp://127.0.0.1/hooks')
    await page.getByRole('button', { name: 'Add webhook' }).click()
    await page.getByText('URL must be https.').waitFor()
    expect(await url.getAttribute('aria-invalid')).toBe('true')
    expect(await violations(page)).toEqual([])

    await url.fill(hooks.url)
    await page.getByRole('button', { name: 'Add webhook' }).click()
    await page
      .getByText(
        'Copy this signing secret now: it is not shown again. Verify deliveries with a Standard Webhooks library.',
      )
      .waitFor()
    const field = page.getByLabel('Signing secret', { exact: true })
    const secret = await field.inputValue()
    expect(secret).toMatch(/^whsec_/)
    expect(await field.getAttribute('readonly')).not.toBeNull()
    expect(await violations(page)).toEqual([])

    const card = page.getByRole('article', { name: hooks.url })
    await card.getByText('order.paid').waitFor()
    await card.getByText('All', { exact: true }).waitFor()

    // a ticket paid reaches the receiver, signed so the Standard Webhooks library verifies it
    const ticketId = await buy(server.app, await signUp(server.app), event, 'VIP', 1)
    await until(() => hooks.received.length >= 1, 15_000)
    const first = hooks.received[0] as Received
    const payload = new Webhook(secret).verify(first.body, first.headers as Record<string, string>) as {
      type: string
      data: { ticketId: string }
    }
    expect([payload.type, payload.data.ticketId]).toEqual(['order.paid', ticketId])

    // once dismissed, the secret is nowhere on the screen; the delivery is listed as delivered
    await page.getByRole('button', { name: 'Done' }).click()
    await page.reload()
    await card.waitFor()
    expect(await page.content()).not.toContain(secret)
    await card.getByRole('button', { name: 'Deliveries' }).click()
    const table = card.getByRole('table', { name: `Deliveries to ${hooks.url}` })
    const row = table.getByRole('row', { name: /order\.paid/ })
    await expect
      .poll(() => row.getByRole('cell').allInnerTexts())
      .toEqual([
        'order.paid',
        expect.stringMatching(/^\d+$/),
        'Delivered',
        '1',
        '200',
        expect.stringMatching(/\d{4}, \d{1,2}:\d{2}/),
        expect.stringMatching(/^Send again/),
      ])
    expect(await violations(page)).toEqual([])

    // sent again on request: the receiver gets the same webhook-id once more
    await row.getByRole('button', { name: /Send again/ }).click()
    await page.getByText('The delivery will be sent again.').waitFor()
    await until(() => hooks.received.length >= 2, 15_000)
    expect(hooks.received[1]?.headers['webhook-id']).toBe(first.headers['webhook-id'])
    await expect.poll(() => row.getByRole('cell').nth(3).textContent(), { timeout: 15_000 }).toBe('2')

    // removed after a confirmation
    await card.getByRole('button', { name: `Remove ${hooks.url}` }).click()
    await card.getByText('Nothing more is sent to it.', { exact: false }).waitFor()
    expect(await violations(page)).toEqual([])
    await card.getByRole('button', { name: 'Yes, remove' }).click()
    await page.getByText('Webhook removed.').waitFor()
    await page.getByText('No webhooks yet.').waitFor()
    expect(
      await page
        .getByRole('heading', { name: 'Your webhooks' })
        .evaluate((h) => h === document.activeElement),
    ).toBe(true)
  })

  it('fits a 390 px phone, an endpoint turned off badged with its day', async () => {
    const page = await pages.open(organizer.token)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.route('**/api/v1/organizer/webhooks', (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({
            json: [
              {
                id: 'a'.repeat(24),
                url: 'https://hooks.example.com/in',
                events: ['order.paid', 'order.refunded'],
                eventIds: null,
                disabledAt: '2027-01-10T06:30:00.000Z',
              },
            ],
          })
        : route.continue(),
    )
    await page.goto('/account/webhooks')
    const card = page.getByRole('article', { name: 'https://hooks.example.com/in' })
    await card.getByText(/^Turned off \d{1,2} \w+ 2027$/).waitFor()
    await page.getByLabel('Only some of my events').check()
    expect(await violations(page)).toEqual([])
  })
})
