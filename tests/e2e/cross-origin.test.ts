// A client served from another origin (the original product's React app, built elsewhere, only
// its base URL pointing here): a page on another port, listed in CORS_ORIGINS, approves an event
// as the admin (PUT), cancels a ticket as its buyer (DELETE), both with fetch and a Bearer token,
// and shows the event's image from the absolute URL the API gives. Real Chromium, real server.
import { createServer, type Server } from 'node:http'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { multipartBody, pngImage } from '../support/media.ts'
import { buy, review } from '../support/sales.ts'
import { freePort, startServer, type TestServer } from '../support/server.ts'

let api: TestServer
let site: Server
let siteOrigin = ''
let browser: Browser
let admin: Session
let organizer: Session

/**
 * The other origin's page: a tiny client with a button per call, its outcome shown in a status
 * line, and the event's image once loaded. The API's address and the tokens come in the query.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Partner client</title></head>
<body>
<h1>Partner client</h1>
<button type="button" id="approve">Approve event</button>
<button type="button" id="cancel">Cancel ticket</button>
<button type="button" id="show">Show event</button>
<p role="status" id="outcome"></p>
<div id="media"></div>
<script>
const q = new URLSearchParams(location.search)
const api = q.get('api') + '/api/v1'
const outcome = document.getElementById('outcome')
async function call(method, path, token, body) {
  try {
    const res = await fetch(api + path, {
      method,
      headers: { Authorization: 'Bearer ' + token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    const json = await res.json()
    outcome.textContent = method + ' ' + res.status + ': ' + json.message
  } catch (error) {
    outcome.textContent = method + ' failed: ' + error.message
  }
}
document.getElementById('approve').onclick = () =>
  call('PUT', '/admin/events/' + q.get('event') + '/status', q.get('admin'), { status: 'Approved' })
document.getElementById('cancel').onclick = () => call('DELETE', '/ticket/' + q.get('ticket'), q.get('buyer'))
document.getElementById('show').onclick = async () => {
  const event = await (await fetch(api + '/event/' + q.get('event'))).json()
  const img = document.createElement('img')
  img.alt = event.title
  img.onload = () => { outcome.textContent = 'image loaded' }
  img.onerror = () => { outcome.textContent = 'image failed' }
  img.src = event.images[0].url
  document.getElementById('media').append(img)
}
</script>
</body></html>`

beforeAll(async () => {
  const port = await freePort()
  siteOrigin = `http://127.0.0.1:${port}`
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
  })
  await new Promise<void>((resolve) => site.listen(port, '127.0.0.1', resolve))
  api = await startServer({ RATE_LIMITS: 'off', CORS_ORIGINS: siteOrigin })
  browser = await launchBrowser()
  admin = await adminSession(api.app)
  organizer = await organizerSession(api.app)
})

afterAll(async () => {
  await browser?.close()
  await api?.close()
  await new Promise((resolve) => site?.close(resolve))
})

async function eventWithImage(title: string): Promise<EventView> {
  const body = await multipartBody(
    {
      title,
      description: 'Seen from another origin.',
      date: `${new Date().getFullYear() + 1}-06-20`,
      time: '19:00',
      location: 'Mysuru',
      category: 'Theatre',
      ticketTypes: JSON.stringify([{ type: 'General Admission', price: 300, quantity: 50 }]),
    },
    [{ field: 'images', filename: 'poster.png', bytes: pngImage(), contentType: 'image/png' }],
  )
  const res = await api.app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    payload: body.payload,
    headers: { ...body.headers, ...bearer(organizer.token) },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().event as EventView
}

async function partnerPage(query: Record<string, string>): Promise<Page> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${siteOrigin}/?${new URLSearchParams({ api: api.url, ...query })}`)
  expect(new URL(page.url()).origin).not.toBe(new URL(api.url).origin)
  return page
}

describe('a client on another origin (listed in CORS_ORIGINS)', () => {
  it('approves an event with PUT and a Bearer token', async () => {
    const event = await eventWithImage('Approved From Afar')
    const page = await partnerPage({ event: event._id, admin: admin.token })

    await page.getByRole('button', { name: 'Approve event' }).click()

    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('PUT 200: Event approved successfully!')
    const now = await api.app.inject({ method: 'GET', url: `/api/v1/event/${event._id}` })
    expect(now.json().approvalStatus).toBe('Approved')
    await page.context().close()
  })

  it('cancels a ticket with DELETE and a Bearer token', async () => {
    const event = await eventWithImage('Cancelled From Afar')
    await review(api.app, admin, event._id)
    const buyer = await signUp(api.app, 'FarBuyer')
    const ticketId = await buy(api.app, buyer, event, 'General Admission', 2)
    const page = await partnerPage({ ticket: ticketId, buyer: buyer.token })

    await page.getByRole('button', { name: 'Cancel ticket' }).click()

    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/^DELETE 200: /)
    const ticket = await api.app.inject({
      method: 'GET',
      url: `/api/v1/ticket/getTicketbyId/${ticketId}`,
      headers: bearer(buyer.token),
    })
    expect(ticket.json().paymentStatus).toBe('Cancelled')
    await page.context().close()
  })

  it("shows the event's image from the absolute URL the API gives", async () => {
    const event = await eventWithImage('Pictured From Afar')
    await review(api.app, admin, event._id)
    const page = await partnerPage({ event: event._id })

    await page.getByRole('button', { name: 'Show event' }).click()

    await expect.poll(() => page.getByRole('status').textContent()).toBe('image loaded')
    const image = page.getByRole('img', { name: 'Pictured From Afar' })
    expect(await image.getAttribute('src')).toMatch(new RegExp(`^${api.url}/uploads/[a-f0-9]{24}\\.png$`))
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    await page.context().close()
  })
})
