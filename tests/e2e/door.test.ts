// The door (issue 16) as the people at it use it, in Chromium:
//   - a phone's camera (Chromium's fake camera, playing a video of a real pass's QR code) reads the
//     pass: "Admitted"; held up again, "Already admitted";
//   - two devices with no network scan 50 passes, 10 of them on both; back online, each pass is
//     admitted once, the second device is told of its 10 double entries, and the organizer's page
//     shows 50 / 50 and the 10 double entries live, as the syncs arrive.
// Check-in opens again with no network once opened online: its service worker (scope /checkin/)
// keeps the app, and the pages of the rest of the site are not under it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { TicketPass } from '../../contracts/checkin.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { writeQrVideo } from '../support/fake-camera.ts'
import { approvedEvent, buy, get, post, signUpAll } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []
const browsers: Browser[] = []
let admin: Session
let organizer: Session
let doorStaff: Session
const folder = mkdtempSync(join(tmpdir(), 'door-e2e-'))

beforeAll(async () => {
  server = await startServer({
    RATE_LIMITS: 'off',
    MAX_TICKETS_PER_ORDER: '10',
    MAX_HELD_SEATS_PER_ADDRESS: '1000',
  })
  admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'Gatehouse')
  doorStaff = await signUp(server.app, 'Doorkeeper')
  browser = await launchBrowser()
  browsers.push(browser)
}, 60_000)

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {})
  for (const opened of browsers) await opened.close()
  await server?.close()
  rmSync(folder, { recursive: true, force: true })
})

async function signedInPage(
  on: Browser,
  account: Session,
  options: { camera?: boolean } = {},
): Promise<Page> {
  const context = await on.newContext({
    baseURL: server.url,
    ...(options.camera ? { permissions: ['camera'] } : {}),
  })
  contexts.push(context)
  await context.addInitScript((token) => localStorage.setItem('token', token), account.token)
  return context.newPage()
}

async function doorEvent(title: string, seats: number): Promise<EventView> {
  const event = await approvedEvent(server.app, organizer, admin, { title }, [
    { type: 'General Admission', price: 500, quantity: seats },
  ])
  const added = await post(server.app, `/api/v1/checkin/${event._id}/door-staff`, organizer, {
    email: doorStaff.email,
  })
  expect(added.statusCode, added.body).toBe(201)
  return event
}

async function passesOf(ticketId: string, owner: Session): Promise<TicketPass[]> {
  const res = await get(server.app, `/api/v1/ticket/${ticketId}/passes`, owner)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as TicketPass[]
}

/** the check-in screen of `event`, its pass list loaded */
async function openDoor(page: Page, event: EventView) {
  await page.goto(`/checkin/${event._id}`)
  await page.locator('.checkin-event', { hasText: event.title }).waitFor()
  await page.locator('.checkin-list-age', { hasText: 'as of' }).waitFor()
}

const figure = (page: Page, label: string) =>
  page.locator('.checkin-facts div', { has: page.locator('dt', { hasText: label }) }).locator('dd')

describe('the door', () => {
  it('reads a pass from the camera: admitted, then already admitted when it is held up again', async () => {
    const event = await doorEvent(`Camera Night ${Date.now()}`, 10)
    const [holder] = await signUpAll(server.app, ['Kaveri'])
    const ticketId = await buy(server.app, holder as Session, event, 'General Admission', 1)
    const [pass] = await passesOf(ticketId, holder as Session)
    expect(pass?.status).toBe('valid')

    // the pass in front of the camera for 2 s, then out of sight for 4 s, again and again
    const video = join(folder, 'pass.y4m')
    writeQrVideo(video, pass?.code ?? '', 2, 4)
    const phone = await launchBrowser([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ])
    browsers.push(phone)
    const page = await signedInPage(phone, doorStaff, { camera: true })
    await openDoor(page, event)
    // a camera already allowed for the site starts by itself
    await page.getByRole('button', { name: 'Stop camera' }).waitFor()

    const result = page.locator('.scan-result')
    await result.and(page.locator('[data-result="admitted"]')).waitFor({ timeout: 20_000 })
    await expect.poll(() => result.textContent()).toContain('Kaveri')
    await result.and(page.locator('[data-confirmed="yes"]')).waitFor()
    await result.and(page.locator('[data-result="already-admitted"]')).waitFor({ timeout: 20_000 })
    await expect.poll(() => result.textContent()).toContain('First admitted')

    const [after] = await passesOf(ticketId, holder as Session)
    expect(after?.status).toBe('admitted')
    await expect.poll(() => figure(page, 'Admitted here').textContent()).toBe('1')
  }, 90_000)

  it('admits each of 50 passes once when two offline devices scanned 10 of them both, and lists the double entries live', async () => {
    const event = await doorEvent(`Offline Night ${Date.now()}`, 100)
    // 10 holders of 5 admissions each: 50 passes
    const holders = await signUpAll(
      server.app,
      Array.from({ length: 10 }, (_, i) => `Holder${i}`),
    )
    const codes: string[] = []
    for (const holder of holders) {
      const ticketId = await buy(server.app, holder, event, 'General Admission', 5)
      for (const pass of await passesOf(ticketId, holder)) codes.push(pass.code)
    }
    expect(codes).toHaveLength(50)
    const first = codes.slice(0, 30)
    const second = codes.slice(20, 50)

    const dashboard = await signedInPage(browser, organizer)
    await dashboard.goto(`/organizers/events/${event._id}?section=check-in`)
    const admitted = dashboard.getByRole('status', { name: 'Admitted', exact: true })
    await expect.poll(() => admitted.textContent()).toBe('0 / 50')

    const doorA = await signedInPage(browser, organizer)
    const doorB = await signedInPage(browser, doorStaff)
    for (const door of [doorA, doorB]) {
      await openDoor(door, event)
      // the door's own copy of the app is kept: the page opens again with no network
      await expect.poll(() => figure(door, 'Offline use').textContent(), { timeout: 20_000 }).toBe('Ready')
      await door.context().setOffline(true)
    }
    await doorA.reload()
    await doorA.locator('.checkin-event', { hasText: event.title }).waitFor()
    await doorA.locator('[data-online="no"]').waitFor()

    const scanAll = async (door: Page, which: string[]) => {
      const field = door.getByLabel('Pass code')
      for (const code of which) {
        await field.fill(code)
        await field.press('Enter')
      }
      await expect.poll(() => figure(door, 'Admitted here').textContent()).toBe(String(which.length))
      await expect.poll(() => figure(door, 'Waiting to send').textContent()).toBe(String(which.length))
    }
    await scanAll(doorA, first)
    await scanAll(doorB, second)
    // nothing reached the server
    await dashboard.waitForTimeout(500)
    expect(await admitted.textContent()).toBe('0 / 50')

    await doorA.context().setOffline(false)
    await doorA.getByText('Every scan is sent.').waitFor({ timeout: 20_000 })
    await expect.poll(() => admitted.textContent()).toBe('30 / 50')
    await doorB.context().setOffline(false)
    await doorB.getByText('Every scan is sent.').waitFor({ timeout: 20_000 })
    await expect.poll(() => admitted.textContent(), { timeout: 5_000 }).toBe('50 / 50')

    // the second device is told which of its entries were double; the first had none
    await expect.poll(() => doorB.locator('.checkin-double-list li').count()).toBe(10)
    await expect.poll(() => doorA.locator('.checkin-doubles').textContent()).toContain('No double entries.')
    // and the organizer's page lists them, pushed
    const doubles = dashboard.locator('table', {
      has: dashboard.getByRole('columnheader', { name: 'First device' }),
    })
    await expect.poll(() => doubles.locator('tbody tr').count()).toBe(10)

    // the ledger: each of the 50 passes admitted once
    const summary = await get(server.app, `/api/v1/checkin/${event._id}/summary`, organizer)
    expect(summary.statusCode).toBe(200)
    expect(summary.json().ticketTypes).toEqual([
      expect.objectContaining({ ticketType: 'General Admission', admitted: 50, expected: 50 }),
    ])
    expect(summary.json().doubleEntries).toHaveLength(10)
  }, 180_000)

  it('keeps the pages outside check-in free of the door worker', async () => {
    const page = await signedInPage(browser, organizer)
    await page.goto('/')
    await page.waitForLoadState('load')
    await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistrations()).length > 0)
    const seen = await page.evaluate(async () => ({
      scopes: (await navigator.serviceWorker.getRegistrations()).map((r) => new URL(r.scope).pathname),
      kept: await caches.keys(),
    }))
    expect(seen.scopes).toEqual(['/'])
    expect(seen.kept).toEqual([])
  })
})
