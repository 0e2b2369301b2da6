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
import { seatText } from '../../contracts/seating.ts'
import { adminSession, bearer, login, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { wallClockIn } from '../support/clock.ts'
import { writeQrVideo } from '../support/fake-camera.ts'
import { waitForMail } from '../support/outbox.ts'
import { approvedEvent, buy, get, post, signUpAll } from '../support/sales.ts'
import { gridSection } from '../support/seat-plans.ts'
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

/** an event's date and time `minutes` from now, in the server's zone (its door opens 24 hours before) */
function startingIn(minutes: number) {
  const { date, time } = wallClockIn(server.config.timeZone, minutes)
  return { date, time }
}

/** an approved event of `seats` seats with the door staff, starting in two hours unless told */
async function doorEvent(title: string, seats: number, startsInMinutes = 120): Promise<EventView> {
  const event = await approvedEvent(server.app, organizer, admin, { title, ...startingIn(startsInMinutes) }, [
    { type: 'General Admission', price: 500, quantity: seats },
  ])
  await addDoorStaff(event, doorStaff)
  return event
}

/** invites `who` to the event's door staff and accepts as them, through the API */
async function addDoorStaff(event: EventView, who: Session) {
  const invited = await post(server.app, `/api/v1/checkin/${event._id}/door-staff`, organizer, {
    email: who.email,
  })
  expect(invited.statusCode, invited.body).toBe(202)
  const mine = await get(server.app, '/api/v1/checkin/invitations', who)
  const invitation = (mine.json() as Array<{ _id: string; eventId: string }>).find(
    (i) => i.eventId === event._id,
  )
  const accepted = await post(server.app, `/api/v1/checkin/invitations/${invitation?._id}/accept`, who)
  expect(accepted.statusCode, accepted.body).toBe(200)
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

  it('lists a pass scanned twice on one device as a double entry, as the organizer’s page does', async () => {
    const event = await doorEvent(`Twice Night ${Date.now()}`, 10)
    const [holder] = await signUpAll(server.app, ['Tanvi'])
    const ticketId = await buy(server.app, holder as Session, event, 'General Admission', 1)
    const [pass] = await passesOf(ticketId, holder as Session)
    const page = await signedInPage(browser, doorStaff)
    await openDoor(page, event)
    const doubles = page.locator('.checkin-doubles')
    await expect.poll(() => doubles.textContent()).toContain('No double entries.')

    const field = page.getByLabel('Pass code')
    const result = page.locator('.scan-result')
    await field.fill(pass?.code ?? '')
    await field.press('Enter')
    await result.and(page.locator('[data-result="admitted"][data-confirmed="yes"]')).waitFor()
    await page.getByRole('button', { name: 'Next scan' }).click()
    await field.fill(pass?.code ?? '')
    await field.press('Enter')
    await result.and(page.locator('[data-result="already-admitted"][data-confirmed="yes"]')).waitFor()

    // the door lists it, with the server's word: turned away here, recorded, first admitted when
    const entries = page.locator('.checkin-double-list li')
    await expect.poll(() => entries.count()).toBe(1)
    expect(await doubles.textContent()).not.toContain('No double entries.')
    const entry = (await entries.first().textContent()) ?? ''
    expect(entry).toContain('Tanvi')
    expect(entry).toContain('Admission 1')
    expect(entry).toContain('turned away')
    expect(entry).toContain('first admitted')
    expect(entry).toContain('recorded by the server')

    // and so does the organizer's page
    const dashboard = await signedInPage(browser, organizer)
    await dashboard.goto(`/organizers/events/${event._id}?section=check-in`)
    const listed = dashboard.locator('table', {
      has: dashboard.getByRole('columnheader', { name: 'First device' }),
    })
    await listed.locator('tbody tr').first().waitFor({ timeout: 30_000 })
    expect(await listed.locator('tbody tr').count()).toBe(1)
    expect(await listed.locator('tbody tr').first().textContent()).toContain('Tanvi')
  }, 90_000)

  it('says "Too early" before the door opens, offline as online, and when it opens', async () => {
    // starts in three days: the door opens in two
    const event = await doorEvent(`Early Night ${Date.now()}`, 10, 3 * 24 * 60)
    const [holder] = await signUpAll(server.app, ['Ishaan'])
    const ticketId = await buy(server.app, holder as Session, event, 'General Admission', 1)
    const [pass] = await passesOf(ticketId, holder as Session)
    const page = await signedInPage(browser, doorStaff)
    await openDoor(page, event)
    // the event's time, in its zone and labelled, as on the event's page (the browser is in UTC)
    await expect.poll(() => figure(page, 'Opens').textContent()).toMatch(/ IST$/)

    // offline, the door decides from its pass list
    await page.context().setOffline(true)
    const field = page.getByLabel('Pass code')
    await field.fill(pass?.code ?? '')
    await field.press('Enter')
    const result = page.locator('.scan-result')
    await result.and(page.locator('[data-result="too-early"][data-confirmed="no"]')).waitFor()
    const shown = (await result.textContent()) ?? ''
    expect(shown).toContain('Too early')
    expect(shown).toMatch(/Check-in opens \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} [ap]m IST\./)
    expect(shown).toContain('Ishaan')

    // back online, the server says the same, and no one was admitted
    await page.context().setOffline(false)
    await page.getByText('Every scan is sent.').waitFor({ timeout: 20_000 })
    const recent = page.getByRole('table', { name: 'Recent scans' })
    await expect.poll(() => recent.locator('tbody tr').first().textContent()).toContain('Too early')
    expect(await figure(page, 'Admitted here').textContent()).toBe('0')
    const [after] = await passesOf(ticketId, holder as Session)
    expect(after?.status).toBe('valid')
  }, 90_000)

  it('shows a seated pass’s seat: offline from its pass list, online from the server', async () => {
    const event = await approvedEvent(
      server.app,
      organizer,
      admin,
      { title: `Seated Night ${Date.now()}`, ...startingIn(120) },
      [{ type: 'Stalls', price: 1500, quantity: 1 }],
    )
    const planned = await server.app.inject({
      method: 'PUT',
      url: `/api/v1/event/${event._id}/seatmap`,
      headers: bearer(organizer.token),
      payload: { sections: [gridSection('Stalls', 'Stalls', 2, 6)] },
    })
    expect(planned.statusCode, planned.body).toBe(200)
    await addDoorStaff(event, doorStaff)
    const [holder] = await signUpAll(server.app, ['Zubin'])
    const ticketId = await buy(server.app, holder as Session, event, 'Stalls', 2)
    const passes = await passesOf(ticketId, holder as Session)
    const seats = passes.map((pass) => (pass.seat ? seatText(pass.seat) : ''))
    expect(seats).toHaveLength(2)
    for (const seat of seats) expect(seat).toMatch(/^Stalls, Row [AB], Seat \d$/)

    const page = await signedInPage(browser, doorStaff)
    await openDoor(page, event)
    const field = page.getByLabel('Pass code')
    const result = page.locator('.scan-result')
    const seatLine = result.locator('.scan-result-seat')

    // offline, the door decides from its pass list, which names the seat
    await page.context().setOffline(true)
    await field.fill(passes[0]?.code ?? '')
    await field.press('Enter')
    await result.and(page.locator('[data-result="admitted"][data-confirmed="no"]')).waitFor()
    expect(await seatLine.textContent()).toBe(seats[0])
    expect(await result.textContent()).toContain('Zubin')
    await page.getByRole('button', { name: 'Next scan' }).click()

    // online, the server's answer names it
    await page.context().setOffline(false)
    await page.getByText('Every scan is sent.').waitFor({ timeout: 20_000 })
    await field.fill(passes[1]?.code ?? '')
    await field.press('Enter')
    await result.and(page.locator('[data-result="admitted"][data-confirmed="yes"]')).waitFor()
    expect(await seatLine.textContent()).toBe(seats[1])
  }, 90_000)

  it('invites door staff by e-mail: the address signs up, accepts on its invitations page and checks people in', async () => {
    const title = `Welcome Night ${Date.now()}`
    const event = await approvedEvent(server.app, organizer, admin, { title, ...startingIn(120) }, [
      { type: 'General Admission', price: 500, quantity: 10 },
    ])
    const [holder] = await signUpAll(server.app, ['Meher'])
    const ticketId = await buy(server.app, holder as Session, event, 'General Admission', 1)
    const [pass] = await passesOf(ticketId, holder as Session)

    // the organizer invites an address that has no account yet
    const email = `steward-${Date.now()}@example.com`
    const dashboard = await signedInPage(browser, organizer)
    await dashboard.goto(`/organizers/events/${event._id}?section=check-in`)
    const staff = dashboard.locator('.door-staff')
    await staff.getByLabel('Door staff email').fill(email)
    await staff.getByRole('button', { name: 'Invite' }).click()
    const entry = staff.locator('.door-staff-list li', { hasText: email })
    await entry.waitFor()
    expect(await entry.textContent()).toContain('Invited')
    await staff.getByLabel('Door staff email').fill(doorStaff.email)
    await staff.getByRole('button', { name: 'Invite' }).click()
    await staff.locator('.door-staff-list li', { hasText: doorStaff.email }).waitFor()

    // the mail to the address says where to accept
    const mail = await waitForMail(
      server.config.outboxDir,
      (m) => m.to.includes(email) && m.subject.includes(title),
    )
    expect(mail.text).toContain(`${server.config.publicUrl}/checkin`)

    // it signs up with that address, and finds the invitation on its invitations page
    const registered = await post(server.app, '/api/v1/auth/register', null, {
      username: 'Steward',
      email,
      password: 'password-1',
    })
    expect(registered.statusCode, registered.body).toBe(200)
    const steward: Session = {
      id: '',
      email,
      password: 'password-1',
      username: 'Steward',
      token: await login(server.app, email, 'password-1'),
    }
    const page = await signedInPage(browser, steward)
    await page.goto('/checkin')
    await page.getByRole('heading', { name: 'Door staff invitations' }).waitFor()
    const invitation = page.locator('.invitation', { hasText: title })
    await invitation.getByRole('button', { name: 'Accept' }).click()
    const open = page
      .locator('.invitation', { hasText: title })
      .getByRole('link', { name: 'Open check-in screen' })
    await open.waitFor()
    await open.click()
    await page.locator('.checkin-event', { hasText: title }).waitFor()
    await page.locator('.checkin-list-age', { hasText: 'as of' }).waitFor()
    const field = page.getByLabel('Pass code')
    await field.fill(pass?.code ?? '')
    await field.press('Enter')
    const result = page.locator('.scan-result')
    await result.and(page.locator('[data-result="admitted"]')).waitFor()
    expect(await result.textContent()).toContain('Meher')

    // the door's own page offers the acceptance to one invited who opens it first
    const door = await signedInPage(browser, doorStaff)
    await door.goto(`/checkin/${event._id}`)
    const offer = door.locator('.checkin-invitation-offer', { hasText: title })
    await offer.getByRole('button', { name: 'Accept' }).click()
    await door.locator('.checkin-event', { hasText: title }).waitFor()
    await door.locator('.checkin-list-age', { hasText: 'as of' }).waitFor()

    // the organizer's list: both accepted, with their names
    await dashboard.reload()
    const accepted = staff.locator('.door-staff-list li[data-status="accepted"]')
    await expect.poll(() => accepted.count(), { timeout: 20_000 }).toBe(2)
    expect(await staff.locator('.door-staff-list li', { hasText: email }).textContent()).toContain('Steward')
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
