// Accounts in the browser: sign-up, login (and the way back to the page that asked), profile,
// logout, organizer creation, password reset, guards and the live user list, against the real
// server and the built web app.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, signUp } from '../support/accounts.ts'
import { ADMIN } from '../support/app.ts'
import { launchBrowser } from '../support/browser.ts'
import { waitForMail } from '../support/outbox.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
})

async function openPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport })
  contexts.push(context)
  return context.newPage()
}

const at = (page: Page, path: string) => page.waitForURL((url) => url.pathname === path)

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login')
  await fillLogin(page, email, password)
}

/** the login form, as the page shows it, filled in and sent */
async function fillLogin(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Login' }).click()
}

async function logOut(page: Page) {
  await page.getByRole('link', { name: 'Profile' }).click()
  await page.getByRole('button', { name: 'Log Out' }).click()
  await at(page, '/login')
  await page.getByText('Logged out successfully !').waitFor()
}

/** a page whose stored token belongs to this account, as after an earlier login */
async function signedInPage(token: string): Promise<Page> {
  const page = await openPage()
  await page.goto('/home')
  await page.evaluate((value) => localStorage.setItem('token', value), token)
  return page
}

describe('accounts in the browser', () => {
  it('signs up, logs in, shows the profile and logs out', async () => {
    const page = await openPage()
    const email = `asha-${Date.now()}@example.com`
    await page.goto('/home')
    // a page loaded is the browser's to focus: nothing is (Tab starts at the navigation)
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    await page.waitForTimeout(300)
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY')
    await page.getByRole('link', { name: 'Sign Up' }).click()
    await at(page, '/signup')

    // Checked before it is sent (the server's schema), then refused by the server.
    await page.getByLabel('Username').fill('Asha')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('pass')
    await page.getByRole('button', { name: 'Sign Up' }).click()
    await page.locator('form').getByText('Password must be at least 6 characters.').waitFor()
    // the field it is about is said invalid, described by the message, and has the focus
    const password = page.getByLabel('Password')
    expect(await password.getAttribute('aria-invalid')).toBe('true')
    const describedBy = (await password.getAttribute('aria-describedby')) ?? ''
    const message = page.locator('form .form-error')
    expect(describedBy.split(' ')).toContain(await message.getAttribute('id'))
    await expect.poll(() => password.evaluate((field) => field === document.activeElement)).toBe(true)
    const taken = await signUp(server.app, 'taken')
    await page.getByLabel('Email').fill(taken.email)
    await page.getByLabel('Password').fill('pass-123')
    await page.getByRole('button', { name: 'Sign Up' }).click()
    await page.locator('form').getByText('An account with this email already exists.').waitFor()
    expect(new URL(page.url()).pathname).toBe('/signup')

    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Sign Up' }).click()
    await at(page, '/login')
    await page.getByText('Sign Up successfully!').waitFor()

    await logIn(page, email, 'pass-123')
    await at(page, '/')
    await page.getByText('Login successfully !').waitFor()
    await page.getByRole('link', { name: 'Inquiry Form' }).waitFor()
    expect(await page.getByRole('link', { name: 'Login' }).count()).toBe(0)

    await page.getByRole('link', { name: 'Profile' }).click()
    await at(page, '/profile')
    const profile = page.locator('.profile')
    await profile.getByText('Asha', { exact: true }).waitFor()
    await profile.getByText(email, { exact: true }).waitFor()
    await profile.getByText('User', { exact: true }).waitFor()

    await page.getByRole('button', { name: 'Log Out' }).click()
    await at(page, '/login')
    await page.getByText('Logged out successfully !').waitFor()
    await page.getByRole('link', { name: 'Login' }).waitFor()
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
  })

  it("says 'Profile not found' when the server has no profile to show", async () => {
    const page = await openPage()
    await logIn(page, ADMIN.email, ADMIN.password)
    await at(page, '/')
    // the session's own check is answered; the profile screen's read finds nothing
    let reads = 0
    await page.route('**/api/v1/auth/profile', (route) =>
      reads++ === 0
        ? route.continue()
        : route.fulfill({ status: 404, contentType: 'application/json', body: '{"message":"Not found."}' }),
    )
    await page.goto('/profile')
    await page.getByText('Profile not found', { exact: true }).waitFor()
    expect(await page.locator('.profile').count()).toBe(0)
  })

  it('lets the admin create an organizer, who then logs in and gets the organizer menu', async () => {
    const page = await openPage()
    const email = `org-${Date.now()}@example.com`
    await logIn(page, ADMIN.email, ADMIN.password)
    await at(page, '/')
    await page.getByRole('link', { name: 'Create Organizer' }).click()
    await at(page, '/createorganizer')
    await page.getByLabel('Name').fill('Olga Organizer')
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill('organizer-1')
    await page.getByRole('button', { name: 'Create Organizer' }).click()
    await page
      .locator('form')
      .getByText('Failed to create organizer. An account with this email already exists.')
      .waitFor()
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Create Organizer' }).click()
    await page.getByText('Organizer created successfully!').waitFor()
    await at(page, '/')
    await logOut(page)

    await logIn(page, email, 'organizer-1')
    await at(page, '/')
    const eventForm = page.getByRole('link', { name: 'EventForm' })
    await eventForm.waitFor()
    expect(await eventForm.getAttribute('href')).toBe('/eventform')
    expect(await page.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe(
      '/organizers/dashboard',
    )
    expect(await page.getByRole('link', { name: 'Create Organizer' }).count()).toBe(0)

    // On a small screen the hamburger menu links to /EventForm, which opens the event form route.
    await page.setViewportSize({ width: 390, height: 800 })
    const toggle = page.getByRole('button', { name: 'Toggle menu' })
    // Escape closes it, the focus back on its button
    await toggle.click()
    await page.locator('#menu-mobile').waitFor()
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator('#menu-mobile').count()).toBe(0)
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    await expect.poll(() => toggle.evaluate((button) => button === document.activeElement)).toBe(true)
    await toggle.click()
    const mobile = page.locator('#menu-mobile')
    expect(await mobile.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/')
    expect(await mobile.getByRole('link', { name: 'Schedule' }).count()).toBe(0)
    await mobile.getByRole('link', { name: 'EventForm' }).click()
    await at(page, '/EventForm')
    await page.getByRole('heading', { name: 'Create Event' }).waitFor()
  })

  it('resets a forgotten password through the mailed link', async () => {
    const account = await signUp(server.app, 'forgetful')
    const page = await openPage()
    await page.goto('/login')
    await page.getByRole('link', { name: 'Forgot Password' }).click()
    await at(page, '/forgot-password')
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await page.locator('form').getByText('Email required').waitFor()
    await page.getByLabel('Email').fill(account.email)
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await page.getByText('Check your email for the reset password link').waitFor()
    await at(page, '/login')

    const mail = await waitForMail(server.config.outboxDir, (m) => m.to.includes(account.email))
    const link = /https?:\/\/\S+\/reset-password\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0]
    expect(link).toBeDefined()
    await page.goto(new URL(link ?? '').pathname)
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await page.locator('form').getByText('Password is required.').waitFor()
    await page.getByLabel('New Password').fill('brand-new-1')
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await page.getByText('Your password has been reset successfully.').waitFor()
    await at(page, '/login')

    await logIn(page, account.email, account.password)
    await page.locator('form').getByText('Invalid email or password.').waitFor()
    await logIn(page, account.email, 'brand-new-1')
    await at(page, '/')
    await page.getByText('Login successfully !').waitFor()

    // The link works once only.
    await page.evaluate(() => localStorage.removeItem('token'))
    await page.goto(new URL(link ?? '').pathname)
    await page.getByLabel('New Password').fill('another-one-1')
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await page.locator('form').getByRole('alert').waitFor()
    expect(page.url()).toContain('/reset-password/')
  })

  it("shows the server's message for a wrong password, and requires both fields", async () => {
    const account = await signUp(server.app, 'mistyped')
    const page = await openPage()
    await page.goto('/login')
    await page.getByRole('button', { name: 'Login' }).click()
    await page.locator('form').getByText('Email and Password are required').waitFor()

    await logIn(page, account.email, 'not-the-password')
    await page.locator('form').getByText('Invalid email or password.').waitFor()
    // both fields said invalid, described by it; the focus on the password, to type again
    const password = page.getByLabel('Password')
    const messageId = await page.locator('form .form-error').getAttribute('id')
    for (const field of [page.getByLabel('Email'), password]) {
      expect(await field.getAttribute('aria-invalid')).toBe('true')
      expect(await field.getAttribute('aria-describedby')).toBe(messageId)
    }
    await expect.poll(() => password.evaluate((field) => field === document.activeElement)).toBe(true)
    expect(new URL(page.url()).pathname).toBe('/login')
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
  })

  it('keeps each area to its role', async () => {
    const user = await signUp(server.app, 'curious')
    const page = await signedInPage(user.token)

    await page.goto('/createorganizer')
    await at(page, '/')
    await page.getByRole('link', { name: 'Explore Events' }).waitFor()
    for (const path of ['/useraccounts', '/admin/dashboard', '/eventform', '/organizers/dashboard']) {
      await page.goto(path)
      await at(page, '/')
    }
    await page.goto('/login')
    await at(page, '/')
    await page.goto('/dashboard')
    await page.getByRole('heading', { name: 'My Dashboard' }).waitFor()

    const visitor = await openPage()
    await visitor.goto('/profile')
    await at(visitor, '/login')
    await visitor.goto('/booking/some-event')
    await at(visitor, '/login')
    await visitor.goto('/dashboard')
    await at(visitor, '/')
  })

  it('brings a visitor back to the page that sent them to log in, and never to another site', async () => {
    const account = await signUp(server.app, 'returning')
    const page = await openPage()
    await page.goto('/profile')
    await at(page, '/login')
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/profile')
    await fillLogin(page, account.email, account.password)
    await at(page, '/profile')
    await page.getByText('Login successfully !').waitFor()
    await page.locator('.profile').getByText(account.email, { exact: true }).waitFor()

    // A login link that names another site (or a path that resolves to one) ends at home, here.
    for (const elsewhere of [
      'https://evil.example/steal',
      '//evil.example/steal',
      '/..//evil.example/steal',
    ]) {
      const visitor = await openPage()
      await visitor.goto(`/login?${new URLSearchParams({ redirect: elsewhere })}`)
      await fillLogin(visitor, account.email, account.password)
      await at(visitor, '/')
      await visitor.getByText('Login successfully !').waitFor()
      expect(new URL(visitor.url()).origin, elsewhere).toBe(new URL(server.url).origin)
    }
  })

  it("shows a new sign-up in the admin's user accounts without a reload", async () => {
    const admin = await adminSession(server.app)
    const page = await signedInPage(admin.token)
    await page.goto('/useraccounts')
    await page.getByRole('cell', { name: ADMIN.email }).waitFor()
    await page.locator('[data-live="connected"]').waitFor()
    await page.evaluate(() => {
      ;(window as unknown as { stillHere: boolean }).stillHere = true
    })

    const newcomer = await signUp(server.app, 'newcomer')
    const row = page.getByRole('row').filter({ hasText: newcomer.email })
    await row.waitFor()
    expect(await row.getByRole('cell').allTextContents()).toEqual(['newcomer', newcomer.email, 'user'])
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)
  })
})
