// The catalogue in the browser: an organizer creates an event with real media while the admin's
// dashboard and a visitor's listing are open; both follow live; search finds it by each filter;
// its detail page shows live availability and plays its video. Against the real server and the
// built web app.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, bearer, organizerSession, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { multipartBody, pngImage } from '../support/media.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
let mediaDir: string
const contexts: BrowserContext[] = []

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  browser = await launchBrowser()
  mediaDir = mkdtempSync(join(tmpdir(), 'catalog-e2e-'))
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true })
})

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
})

async function openPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } })
  contexts.push(context)
  return context.newPage()
}

/** a page whose stored token belongs to this account, as after an earlier login */
async function signedInPage(token: string): Promise<Page> {
  const page = await openPage()
  await page.goto('/home')
  await page.evaluate((value) => localStorage.setItem('token', value), token)
  return page
}

const at = (page: Page, path: string) => page.waitForURL((url) => url.pathname === path)

/** marks the document, so that a later check can tell it was never reloaded */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { stillHere: boolean }).stillHere = true
  })
const stillSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere === true)

/** a day `days` from now, as the API writes it (YYYY-MM-DD) */
function dayFromNow(days: number): string {
  const day = new Date(Date.now() + days * 86_400_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`
}

/** A short, playable WebM recorded by Chromium itself: a canvas animation through MediaRecorder. */
async function recordWebm(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas')
    canvas.width = 160
    canvas.height = 120
    const context = canvas.getContext('2d') as CanvasRenderingContext2D
    let frame = 0
    const draw = () => {
      context.fillStyle = `hsl(${(frame * 12) % 360} 70% 50%)`
      context.fillRect(0, 0, 160, 120)
      context.fillStyle = '#fff'
      context.fillRect((frame * 4) % 160, 50, 20, 20)
      frame++
    }
    draw()
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm;codecs=vp8' })
    const chunks: Blob[] = []
    recorder.ondataavailable = (event) => chunks.push(event.data)
    const stopped = new Promise((resolve) => {
      recorder.onstop = resolve
    })
    const ticking = setInterval(draw, 40)
    recorder.start(250)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    recorder.stop()
    await stopped
    clearInterval(ticking)
    const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer())
    let binary = ''
    for (const byte of bytes) binary += String.fromCharCode(byte)
    return btoa(binary)
  })
  return Buffer.from(base64, 'base64')
}

/** records every value the upload progress bar shows, for the test to read afterwards */
const recordProgress = (page: Page) =>
  page.evaluate(() => {
    const seen: number[] = []
    ;(window as unknown as { progressSeen: number[] }).progressSeen = seen
    const note = () => {
      // (toasts have progress bars of their own)
      const bar = document.querySelector('[role="progressbar"][aria-label="Upload progress"]')
      const value = bar?.getAttribute('aria-valuenow')
      if (value != null && seen.at(-1) !== Number(value)) seen.push(Number(value))
    }
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    })
  })

/** an event created and, if asked, reviewed through the API */
async function apiEvent(
  token: string,
  fields: { title: string; category: string; location: string },
  review?: 'Approved' | 'Rejected',
  reason?: string,
): Promise<string> {
  const { payload, headers } = await multipartBody({
    ...fields,
    description: 'Made through the API for this test.',
    date: dayFromNow(40),
    time: '18:00',
    ticketTypes: JSON.stringify([{ type: 'General Admission', price: 250, quantity: 50 }]),
  })
  const created = await server.app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    headers: { ...headers, ...bearer(token) },
    payload,
  })
  expect(created.statusCode).toBe(201)
  const id: string = created.json().event._id
  if (review) {
    const admin = await adminSession(server.app)
    const reviewed = await server.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/events/${id}/status`,
      headers: bearer(admin.token),
      payload: { status: review, ...(reason ? { reason } : {}) },
    })
    expect(reviewed.statusCode).toBe(200)
  }
  return id
}

describe('the catalogue in the browser', () => {
  it('creates an event with media, which the admin approves live and every visitor then finds', async () => {
    const organizer = await organizerSession(server.app, 'Olu')
    const admin = await adminSession(server.app)
    const suffix = Date.now().toString(36)
    const title = `Monsoon Jazz Night ${suffix}`
    const category = `Jazz-${suffix}`
    const location = `Blue Frog Hall ${suffix}, Mumbai`
    const date = dayFromNow(30)

    // The admin's dashboard and a visitor's listing are open before anything is submitted.
    const adminPage = await signedInPage(admin.token)
    await adminPage.goto('/admin/dashboard')
    await adminPage.getByRole('heading', { name: 'Admin Dashboard' }).waitFor()
    expect(await adminPage.getByRole('link', { name: 'User Accounts' }).getAttribute('href')).toBe(
      '/useraccounts',
    )
    await adminPage.locator('[data-live="connected"]').waitFor()
    await markDocument(adminPage)

    const visitor = await openPage()
    await visitor.goto('/home')
    await visitor.getByRole('heading', { name: 'Events' }).waitFor()
    await visitor.locator('[data-live="connected"]').waitFor()
    await markDocument(visitor)

    // The organizer's media: a PNG made here, a WebM recorded by the browser.
    const page = await signedInPage(organizer.token)
    const imagePath = join(mediaDir, 'poster.png')
    writeFileSync(imagePath, pngImage({ width: 320, height: 180, rgb: [30, 90, 160], padTo: 300_000 }))
    const videoPath = join(mediaDir, 'teaser.webm')
    writeFileSync(videoPath, await recordWebm(page))

    await page.goto('/eventform')
    await page.getByRole('heading', { name: 'Create Event' }).waitFor()
    await page.getByLabel('Event Title').fill(title)
    await page.getByLabel('Description').fill('An evening of live jazz by the sea.')
    await page.getByLabel('Date').fill(date)
    await page.getByLabel('Time').fill('19:30')
    const salesEnd = dayFromNow(29)
    await page.getByLabel('Sales End (optional)').fill(`${salesEnd}T18:00`)
    await page.getByLabel('Location').fill(location)
    await page.getByLabel('Category').fill(category)
    await page.getByLabel('Upload Images').setInputFiles(imagePath)
    await page.getByRole('img', { name: 'Preview of poster.png' }).waitFor()
    await page.getByLabel('Upload Videos').setInputFiles(videoPath)
    await page.getByLabel('Preview of teaser.webm').waitFor()

    // Ticket types: VIP first, then General Admission; a third row comes and goes.
    const firstType = page.getByRole('listitem', { name: 'Ticket type 1' })
    expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(0)
    await firstType.getByLabel('Type').selectOption('VIP')
    await firstType.getByLabel('Price').fill('1500')
    await firstType.getByLabel('Quantity').fill('20')
    await page.getByRole('button', { name: 'Add Ticket Type' }).click()
    const secondType = page.getByRole('listitem', { name: 'Ticket type 2' })
    expect(await secondType.getByLabel('Type').inputValue()).toBe('General Admission')
    await secondType.getByLabel('Price').fill('499')
    await secondType.getByLabel('Quantity').fill('100')
    await page.getByRole('button', { name: 'Add Ticket Type' }).click()
    expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(3)
    await page
      .getByRole('listitem', { name: 'Ticket type 3' })
      .getByRole('button', { name: 'Remove' })
      .click()
    expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(2)

    // A slow uplink, so the bytes visibly go out a little at a time.
    const devtools = await page.context().newCDPSession(page)
    await devtools.send('Network.enable')
    await devtools.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    })
    await recordProgress(page)
    await page.getByRole('button', { name: 'Create Event' }).click()
    const busy = page.getByRole('button', { name: 'Creating Event...' })
    await busy.waitFor()
    expect(await busy.isDisabled()).toBe(true)
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor()
    await page.getByText('Event created successfully').waitFor()
    // the organizer lands on the new event's own page, which says it waits for review
    await page.waitForURL((url) => /^\/organizers\/events\/[\w-]+$/.test(url.pathname))
    const createdId = new URL(page.url()).pathname.split('/').at(-1) ?? ''
    await page.getByRole('heading', { name: title, level: 1 }).waitFor()
    const pill = page.locator('.organizer-event-when [data-status]')
    await pill.getByText('Pending', { exact: true }).waitFor()
    // its time in the event's zone, labelled, as on the event's public page
    await expect.poll(() => page.locator('.organizer-event-when').textContent()).toMatch(/ [ap]m IST/)
    await page.getByText("Waiting for an admin's review: not public yet.").waitFor()
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen)
    expect(seen.at(-1)).toBe(100)
    expect(seen.some((percent) => percent > 0 && percent < 100)).toBe(true)
    expect([...seen].sort((a, b) => a - b)).toEqual(seen)
    await devtools.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    })

    // The admin's open dashboard shows the submission without a reload, and approves it.
    const card = adminPage.getByRole('listitem', { name: title })
    await card.waitFor()
    await card.getByText('Pending', { exact: true }).waitFor()
    await card.getByText('This event has not been approved yet.').waitFor()
    await card.getByText(location).waitFor()
    await card.getByRole('button', { name: 'Approve' }).click()
    await adminPage.getByText('Event approved successfully!').waitFor()
    await card.getByText('Approved', { exact: true }).waitFor()
    expect(await card.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true)
    // the organizer's page of it, open all along, follows
    await pill.getByText('Approved', { exact: true }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/organizers/events/${createdId}`)
    expect(await card.getByText('This event has not been approved yet.').count()).toBe(0)
    expect(await stillSameDocument(adminPage)).toBe(true)

    // The visitor's open listing shows the approved event without a reload, at its lowest price.
    const listed = visitor
      .getByRole('listitem')
      .filter({ has: visitor.getByRole('heading', { name: title }) })
    await listed.waitFor()
    await listed.getByRole('img', { name: title }).waitFor()
    await listed.getByText(`Location: ${location}`).waitFor()
    await listed.getByText('Price: ₹499', { exact: true }).waitFor()
    const shownDate = await visitor.evaluate((day) => {
      const [y, m, d] = day.split('-').map(Number) as [number, number, number]
      return new Date(y, m - 1, d).toLocaleDateString('en-IN', {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
      })
    }, date)
    await listed.getByText(`Date: ${shownDate}`, { exact: true }).waitFor()
    expect(await stillSameDocument(visitor)).toBe(true)

    // Search shows the approved events before anything is typed. SPEC's flow: a term, a 'Filter
    // by' type, Search (Price puts Min Price and Max Price in the text box's place); words by
    // default; criteria combined with 'Add filter'. Cards carry the first ticket type's price.
    await visitor.getByRole('link', { name: 'Search', exact: true }).click()
    await at(visitor, '/search')
    const results = visitor.locator('.search-results')
    await results.getByRole('heading', { name: 'Events' }).waitFor()
    const result = results
      .getByRole('listitem')
      .filter({ has: visitor.getByRole('heading', { name: title }) })
    await result.getByText('Price: ₹1,500', { exact: true }).waitFor()
    /** searches, waits for the server's answer to each criterion ('text': the words), and gives
     * back the query each was asked with */
    const searchNow = async (criteria: string[]) => {
      const answers = criteria.map((filterType) =>
        visitor.waitForResponse(
          (response) =>
            response.url().includes('/api/v1/event/filter') &&
            (new URL(response.url()).searchParams.get('filterType') ?? 'text') === filterType,
        ),
      )
      await visitor.getByRole('button', { name: 'Search', exact: true }).click()
      const answered = await Promise.all(answers)
      await visitor.locator('.search-results[aria-busy="false"]').waitFor()
      return answered.map((response) => Object.fromEntries(new URL(response.url()).searchParams))
    }
    const searchBox = visitor.getByLabel('Search term', { exact: true })
    /** the text box, labelled by what it takes: the filter type (words: 'Search term') */
    const termBox = (filter: string) =>
      visitor.getByLabel(filter === 'Words' ? 'Search term' : filter, { exact: true })
    const filterBy = visitor.getByLabel('Filter by', { exact: true })
    const minPrice = visitor.getByLabel('Min Price', { exact: true })
    const maxPrice = visitor.getByLabel('Max Price', { exact: true })
    /** fills the one row: a filter type, and a term or (for Price) a range */
    const fillRow = async (filter: string, term: string | [string, string]) => {
      await filterBy.selectOption(filter)
      if (Array.isArray(term)) {
        await minPrice.fill(term[0])
        await maxPrice.fill(term[1])
      } else {
        await termBox(filter).fill(term)
      }
    }
    const shownAlone = async () => {
      await result.getByText('Price: ₹1,500', { exact: true }).waitFor()
      await result.getByRole('img', { name: title }).waitFor()
      await result.getByText(`Location: ${location}`).waitFor()
      await result.getByText(`Date: ${shownDate}`, { exact: true }).waitFor()
      expect(await results.getByRole('listitem').count()).toBe(1)
    }

    // SPEC's options, Words first and chosen.
    expect(await filterBy.locator('option').allTextContents()).toEqual([
      'Words',
      'Category',
      'Date',
      'Location',
      'Price',
    ])
    expect(await filterBy.inputValue()).toBe('text')

    // Words, by default: prefixes of words of its title, description and category, in any case.
    await searchBox.fill(`MONSOON nig ${suffix.slice(0, 5)}`)
    expect(await searchNow(['text'])).toEqual([{ search: `MONSOON nig ${suffix.slice(0, 5)}` }])
    await shownAlone()
    await searchBox.fill(`sea ${suffix}`)
    await searchNow(['text'])
    await shownAlone()
    await searchBox.fill(`monsoon ${suffix} chennai`)
    await searchNow(['text'])
    await results.getByText('No events found for the selected criteria.').waitFor()
    await results.getByText('No events available', { exact: true }).waitFor()

    // A term and a filter type, then Search: one GET /event/filter, as the original client sent it.
    const searches: [string, string | [string, string], string][] = [
      ['Category', category.toUpperCase(), category.toUpperCase()],
      ['Location', `frog hall ${suffix}`, `frog hall ${suffix}`],
      ['Date', date, date],
      ['Price', ['400', '600'], '400-600'],
    ]
    for (const [filter, term, sent] of searches) {
      await fillRow(filter, term)
      // Price: the text box gives way to Min Price and Max Price.
      expect(await termBox(filter).count()).toBe(filter === 'Price' ? 0 : 1)
      expect(await minPrice.count()).toBe(filter === 'Price' ? 1 : 0)
      expect(await searchNow([filter.toLowerCase()])).toEqual([
        { search: sent, filterType: filter.toLowerCase() },
      ])
      await shownAlone()
    }

    // Words, category and a price range together: 'Add filter' keeps each as a chip and empties
    // the row; Search runs the chips and the row, and each narrows the others.
    const addFilter = visitor.getByRole('button', { name: 'Add filter', exact: true })
    // what it does is said beside it, and is its description
    const hint = visitor.getByText(
      'Add filter keeps this criterion and empties the row for another; Search finds the events that match every one.',
      { exact: true },
    )
    await hint.waitFor()
    expect(await addFilter.getAttribute('aria-describedby')).toBe(await hint.getAttribute('id'))
    const chips = visitor.getByRole('list', { name: 'Filters added' })
    await fillRow('Words', 'monsoon')
    await addFilter.click()
    await chips.getByRole('listitem', { name: 'Words: monsoon' }).getByText('Words: monsoon').waitFor()
    expect(await filterBy.inputValue()).toBe('text')
    expect(await searchBox.inputValue()).toBe('')
    await fillRow('Category', category)
    await addFilter.click()
    await chips.getByRole('listitem', { name: `Category: ${category}` }).waitFor()
    await fillRow('Price', ['1000', '2000'])
    expect(await searchNow(['text', 'category', 'price'])).toEqual([
      { search: 'monsoon' },
      { search: category, filterType: 'category' },
      { search: '1000-2000', filterType: 'price' },
    ])
    await shownAlone()
    await fillRow('Price', ['2000', '3000'])
    await addFilter.click()
    const dearer = chips.getByRole('listitem', { name: 'Price: ₹2,000 – ₹3,000' })
    await dearer.waitFor()
    expect(await minPrice.count()).toBe(0)
    await searchNow(['text', 'category', 'price'])
    await results.getByText('No events found for the selected criteria.').waitFor()
    await dearer.getByRole('button', { name: 'Remove' }).click()
    await dearer.waitFor({ state: 'detached' })
    expect(await chips.getByRole('listitem').count()).toBe(2)
    await searchNow(['text', 'category'])
    await shownAlone()
    await visitor.getByRole('button', { name: 'Clear' }).click()
    await chips.waitFor({ state: 'detached' })
    expect(await searchBox.inputValue()).toBe('')
    await result.getByText('Price: ₹1,500', { exact: true }).waitFor()

    // Its detail page: tickets with live availability, Book Now, and the video playing.
    await fillRow('Category', category)
    await searchNow(['category'])
    await result.getByRole('link', { name: 'View Details' }).click()
    await visitor.getByRole('heading', { name: title, level: 1 }).waitFor()
    const eventId = new URL(visitor.url()).pathname.split('/').at(-1) ?? ''
    expect(new URL(visitor.url()).pathname).toBe(`/event/${eventId}`)
    await visitor.getByRole('img', { name: title }).waitFor()
    await visitor.getByText('An evening of live jazz by the sea.').waitFor()
    await visitor.getByText('7:30 pm IST', { exact: true }).waitFor()
    const shownSalesEnd = await visitor.evaluate((day) => {
      const [y, m, d] = day.split('-').map(Number) as [number, number, number]
      return new Date(y, m - 1, d).toLocaleDateString('en-IN', {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
      })
    }, salesEnd)
    await visitor.getByText('Sales end:', { exact: true }).waitFor()
    await visitor.getByText(`${shownSalesEnd}, 6:00 pm IST`, { exact: true }).waitFor()
    await visitor.getByRole('heading', { name: 'Tickets' }).waitFor()
    const vip = visitor.locator('.ticket-row').filter({ hasText: 'VIP' })
    await vip.getByText('₹1,500').waitFor()
    await vip.getByText('Available: 20').waitFor()
    const general = visitor.locator('.ticket-row').filter({ hasText: 'General Admission' })
    await general.getByText('₹499').waitFor()
    await general.getByText('Available: 100').waitFor()
    expect(await visitor.getByRole('link', { name: 'Book Now' }).getAttribute('href')).toBe(
      `/booking/${eventId}`,
    )

    await visitor.locator('[data-live="connected"]').waitFor()
    const buyer = await signUp(server.app, 'buyer')
    const held = await server.app.inject({
      method: 'POST',
      url: '/api/v1/ticket/create',
      headers: bearer(buyer.token),
      payload: { eventId, ticketType: 'VIP', quantity: 3, amount: 4500 },
    })
    expect(held.statusCode).toBe(200)
    await vip.getByText('Available: 17').waitFor()

    await visitor.getByRole('heading', { name: 'Event Video' }).waitFor()
    const video = visitor.locator('video')
    expect(await video.getAttribute('controls')).not.toBeNull()
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true
      await element.play()
    })
    await visitor.waitForFunction(() => {
      const element = document.querySelector('video')
      return element !== null && element.readyState >= 2 && element.currentTime > 0.2
    })
  }, 120_000)

  it('shows the search form its validation messages, and the server its refusals', async () => {
    const page = await openPage()
    const searched: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/event/filter')) searched.push(request.url())
    })
    await page.goto('/search')
    await page.getByRole('heading', { name: 'Events' }).waitFor()
    const search = page.getByRole('button', { name: 'Search', exact: true })
    const addFilter = page.getByRole('button', { name: 'Add filter', exact: true })
    const termNeeded = page.getByText('Please enter a search term and select a filter type.')
    const pricesNeeded = page.getByText('Please enter valid min and max prices.')

    // The box is labelled by what it takes, and a new filter type starts it empty.
    await page.getByLabel('Search term', { exact: true }).fill('jazz')
    await page.getByLabel('Filter by').selectOption('Category')
    expect(await page.getByLabel('Search term', { exact: true }).count()).toBe(0)
    expect(await page.getByLabel('Category', { exact: true }).inputValue()).toBe('')
    expect(await page.getByLabel('Category', { exact: true }).getAttribute('placeholder')).toBe('e.g. Music')
    await page.getByLabel('Category', { exact: true }).fill('Music')
    await page.getByLabel('Filter by').selectOption('Location')
    expect(await page.getByLabel('Location', { exact: true }).inputValue()).toBe('')
    await page.getByLabel('Filter by').selectOption('Words')
    expect(await page.getByLabel('Search term', { exact: true }).inputValue()).toBe('')

    // Nothing typed; a filter type but no term; a filter added from an empty row.
    await search.click()
    await termNeeded.waitFor()
    await page.getByLabel('Filter by').selectOption('Category')
    await termNeeded.waitFor({ state: 'detached' })
    await search.click()
    await termNeeded.waitFor()
    await page.getByLabel('Filter by').selectOption('Location')
    await addFilter.click()
    await termNeeded.waitFor()

    // Price: both bounds, the lower first.
    await page.getByLabel('Filter by').selectOption('Price')
    await search.click()
    await pricesNeeded.waitFor()
    await page.getByLabel('Min Price', { exact: true }).fill('500')
    await search.click()
    await pricesNeeded.waitFor()
    await page.getByLabel('Max Price', { exact: true }).fill('100')
    await addFilter.click()
    await pricesNeeded.waitFor()
    await search.click()
    await pricesNeeded.waitFor()
    expect(await page.getByRole('list', { name: 'Filters added' }).count()).toBe(0)
    expect(searched).toEqual([])

    await page.getByLabel('Filter by').selectOption('Date')
    await page.getByLabel('Date', { exact: true }).fill('next friday')
    await search.click()
    await page.getByText('Date must be YYYY-MM-DD (a day) or YYYY-MM (a month).').waitFor()
    expect(await pricesNeeded.count()).toBe(0)

    // On a 390 px phone, the price row and long chips fit without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByLabel('Filter by').selectOption('Words')
    await page.getByLabel('Search term', { exact: true }).fill('unbrokensearchterm'.repeat(4))
    await addFilter.click()
    await page.getByLabel('Filter by').selectOption('Price')
    await page.getByLabel('Min Price', { exact: true }).fill('1000')
    await page.getByLabel('Max Price', { exact: true }).fill('250000')
    await addFilter.click()
    await page.getByRole('listitem', { name: 'Price: ₹1,000 – ₹2,50,000' }).waitFor()
    await page.getByLabel('Filter by').selectOption('Price')
    await page.getByLabel('Min Price', { exact: true }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  })

  it('lists rejected events first on the admin dashboard, each not approved, saying it was rejected and why', async () => {
    const organizer = await organizerSession(server.app, 'Rina')
    const suffix = Date.now().toString(36)
    const approved = `Approved Gala ${suffix}`
    const rejected = `Rejected Rave ${suffix}`
    await apiEvent(organizer.token, { title: approved, category: 'Gala', location: 'Pune' }, 'Approved')
    await apiEvent(
      organizer.token,
      { title: rejected, category: 'Rave', location: 'Goa' },
      'Rejected',
      'No noise permit for the beach.',
    )

    const admin = await adminSession(server.app)
    const page = await signedInPage(admin.token)
    await page.goto('/admin/dashboard')
    const card = page.getByRole('listitem', { name: rejected })
    await card.waitFor()
    await card.getByText('Rejected', { exact: true }).waitFor()
    await card.getByText('This event has been rejected.', { exact: true }).waitFor()
    await card.getByText('Reason given: No noise permit for the beach.', { exact: true }).waitFor()
    // SPEC's notice of an event not approved, as on a pending one
    expect(await card.getByText('This event has not been approved yet.').count()).toBe(1)
    expect(await card.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true)
    expect(await card.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true)
    const statuses = await page
      .locator('.dashboard-event')
      .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-status')))
    expect(statuses.indexOf('Approved')).toBeGreaterThan(statuses.lastIndexOf('Rejected'))
    expect(statuses[0]).toBe('Rejected')

    const approvedCard = page.getByRole('listitem', { name: approved })
    expect(await approvedCard.getByText('This event has not been approved yet.').count()).toBe(0)
    await approvedCard.getByRole('button', { name: 'Reject' }).click()
    await page.getByText('Event rejected !').waitFor()
    await approvedCard.getByText('This event has been rejected.', { exact: true }).waitFor()
    expect(await approvedCard.getByText('This event has not been approved yet.').count()).toBe(1)
  })

  it('checks the event form, and shows what the server refuses next to its field', async () => {
    const organizer = await organizerSession(server.app, 'Tara')
    const page = await signedInPage(organizer.token)
    const creates: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/event/create')) creates.push(request.url())
    })
    await page.goto('/eventform')
    const title = page.getByLabel('Event Title')
    const titleField = page.locator('.field').filter({ has: title })

    // Checked as the organizer types: nothing before a field is touched, a message while it is
    // wrong, gone as soon as it is right.
    await title.fill('Not')
    expect(await page.locator('.field-error').count()).toBe(0)
    await title.fill('')
    await titleField.getByText('Title is required.').waitFor()
    expect(await title.getAttribute('aria-invalid')).toBe('true')
    await title.fill('N')
    await titleField.getByText('Title is required.').waitFor({ state: 'detached' })
    expect(await title.getAttribute('aria-invalid')).toBe('false')
    const quantity = page.getByLabel('Quantity')
    const quantityField = page.locator('.field').filter({ has: quantity })
    await quantity.fill('0')
    await quantityField.getByText('Quantity must be at least 1.').waitFor()
    await quantity.fill('40')
    await quantityField.getByText('Quantity must be at least 1.').waitFor({ state: 'detached' })
    expect(await page.locator('.field-error').count()).toBe(0)
    await title.fill('')

    // A submit shows every problem, each with one message in one place, and sends nothing.
    await page.getByRole('button', { name: 'Create Event' }).click()
    await page.getByText('Location is required.').waitFor()
    for (const message of ['Title is required.', 'Location is required.', 'Price must be a number.'])
      expect(await page.getByText(message).count()).toBe(1)
    // title, description, date, time, location, category and price: one message each
    expect(await page.locator('.field-error').count()).toBe(7)
    expect(await page.getByText('Error creating event').count()).toBe(0)
    expect(await title.getAttribute('aria-invalid')).toBe('true')
    expect(creates).toEqual([])

    await title.fill('Not Quite an Image')
    await page.getByLabel('Description').fill('The poster is text in disguise.')
    await page.getByLabel('Date').fill(dayFromNow(10))
    await page.getByLabel('Time').fill('10:00')
    await page.getByLabel('Location').fill('Chennai')
    await page.getByLabel('Category').fill('Theatre')
    await page.getByLabel('Price', { exact: true }).fill('300')
    expect(await page.locator('.field-error').count()).toBe(0)

    // A text file picked as an image is refused by its first bytes, before anything is sent.
    const fakePath = join(mediaDir, 'fake.png')
    writeFileSync(fakePath, 'this is plain text, not a picture')
    await page.getByLabel('Upload Images').setInputFiles(fakePath)
    const imagesField = page.locator('.field').filter({ has: page.getByLabel('Upload Images') })
    const notAnImage = '"fake.png" is not an image (JPEG, PNG, GIF, WebP or AVIF).'
    await imagesField.locator('.field-error').getByText(notAnImage).waitFor()
    expect(creates).toEqual([])
    await page.getByRole('button', { name: 'Create Event' }).click()
    expect(await page.getByText(notAnImage).count()).toBe(1)
    expect(creates).toEqual([])
    // …and a text file picked as a video too; a real image is taken.
    await page.getByLabel('Upload Videos').setInputFiles(fakePath)
    const videosField = page.locator('.field').filter({ has: page.getByLabel('Upload Videos') })
    await videosField.getByText('"fake.png" is not a video (MP4, WebM, Ogg or QuickTime).').waitFor()
    await page.getByLabel('Upload Videos').setInputFiles([])
    const posterPath = join(mediaDir, 'real.png')
    writeFileSync(posterPath, pngImage({ width: 40, height: 30, rgb: [200, 40, 40] }))
    await page.getByLabel('Upload Images').setInputFiles(posterPath)
    await page.getByRole('img', { name: 'Preview of real.png' }).waitFor()
    expect(await page.locator('.field-error').count()).toBe(0)
    expect(new URL(page.url()).pathname).toBe('/eventform')

    // A sales end after the start is caught by the form's own check, next to its field.
    const salesEnd = page.getByLabel('Sales End (optional)')
    await salesEnd.fill(`${dayFromNow(10)}T10:30`)
    const salesEndField = page.locator('.field').filter({ has: salesEnd })
    await salesEndField.getByText('Sales must end before the event starts.').waitFor()
    expect(await salesEnd.getAttribute('aria-invalid')).toBe('true')
    await salesEnd.fill('')
    await salesEndField.getByText('Sales must end before the event starts.').waitFor({ state: 'detached' })

    await page.getByLabel('Upload Images').setInputFiles([])
    await page.getByLabel('Date').fill('2020-01-01')
    await page.getByRole('button', { name: 'Create Event' }).click()
    const dateField = page.locator('.field').filter({ has: page.getByLabel('Date') })
    await dateField.getByText('The date cannot be in the past.').waitFor()
    expect(await page.getByRole('button', { name: 'Create Event' }).isEnabled()).toBe(true)
    await page.getByText('Error creating event').waitFor()
    expect(await page.getByText('The date cannot be in the past.').count()).toBe(1)
    expect(creates).toHaveLength(1)
    // The server's message goes as soon as its field changes.
    await page.getByLabel('Date').fill(dayFromNow(12))
    await dateField.getByText('The date cannot be in the past.').waitFor({ state: 'detached' })
    expect(await page.locator('.field-error').count()).toBe(0)
  })
})
