// The admin's support inbox with more inquiries than one page (an inbox may hold thousands): the
// first page of 50 comes at once, newest first, and "Show more inquiries" brings the next, until
// there is none. Against the real server and the built web app.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { post } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
let context: BrowserContext
let admin: Session
const COUNT = 57

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  browser = await launchBrowser()
  admin = await adminSession(server.app)
  const asker = await signUp(server.app, 'many')
  for (let i = 1; i <= COUNT; i++) {
    const res = await post(server.app, '/api/v1/admin/support', asker, {
      subject: `Question ${i}`,
      inquiry: `Question number ${i}.`,
    })
    expect(res.statusCode).toBe(201)
  }
  context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } })
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await server?.close()
})

const subjects = (page: Page) => page.locator('.inquiry-card h2').allTextContents()

describe('the support inbox, past one page', () => {
  it('shows the newest 50, then the rest on "Show more inquiries"', async () => {
    const page = await context.newPage()
    await page.goto('/home')
    await page.evaluate((token) => localStorage.setItem('token', token), admin.token)
    const asked: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/admin/support/get')) asked.push(new URL(request.url()).search)
    })

    await page.goto('/inquiryreplay')
    await page.getByRole('heading', { name: 'Support Inquiries' }).waitFor()
    await page.getByRole('article', { name: `Question ${COUNT}`, exact: true }).waitFor()

    expect(await subjects(page)).toEqual(Array.from({ length: 50 }, (_, i) => `Question ${COUNT - i}`))
    // (the live channel's connection may fetch the first page again)
    expect([...new Set(asked)]).toEqual(['?page=1&limit=50'])
    const more = page.getByRole('button', { name: 'Show more inquiries' })
    await more.click()
    await page.getByRole('article', { name: 'Question 1', exact: true }).waitFor()

    expect(await subjects(page)).toEqual(Array.from({ length: COUNT }, (_, i) => `Question ${COUNT - i}`))
    expect([...new Set(asked)]).toEqual(['?page=1&limit=50', '?page=2&limit=50'])
    expect(await more.count()).toBe(0)
  })
})
