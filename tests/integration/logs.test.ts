// What the logs never hold: a password sent in a body, a token in a header, a reset link's token in
// the address it is opened at, a password written into a setting's URL. A real app logging at info,
// as in production, every line kept and searched.
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Config } from '../../server/config.ts'
import { createLogger } from '../../server/log.ts'
import { buildApp } from '../../server/root.ts'
import { bearer, signUp } from '../support/accounts.ts'
import { ADMIN, testConfigOnStore } from '../support/app.ts'
import { waitForMail } from '../support/outbox.ts'

/** A logger as the app's own (createLogger), at info and in JSON, whose lines are kept here. */
function capturedLogger(config: Config) {
  let text = ''
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk)
      done()
    },
  })
  const logger = createLogger({ ...config, logLevel: 'info', logFormat: 'json' }, sink)
  return { logger, text: () => text }
}

let started: { app: Awaited<ReturnType<typeof buildApp>>; config: Config; release(): Promise<void> }
let log: ReturnType<typeof capturedLogger>

beforeAll(async () => {
  const { config, release } = await testConfigOnStore()
  log = capturedLogger(config)
  started = { app: await buildApp(config, log.logger), config, release }
})
afterAll(async () => {
  await started?.app.close()
  await started?.release()
})

describe('the logs', () => {
  it('hold no password, token or reset link of a whole account round', async () => {
    const { app, config } = started
    const user = await signUp(app, 'logged')
    await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: 'a-wrong-password-9' },
    })
    await app.inject({ method: 'GET', url: '/api/v1/auth/profile', headers: bearer(user.token) })
    await app.inject({ method: 'GET', url: '/api/v1/auth/profile', headers: bearer(`${user.token}x`) })
    await app.inject({ method: 'POST', url: '/api/v1/auth/forgotpassword', payload: { email: user.email } })
    const mail = await waitForMail(config.outboxDir, (m) => m.to.includes(user.email))
    const resetToken = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? ''
    expect(resetToken).not.toBe('')
    // the link as the mail gives it, opened in a browser, then the new password sent to it
    await app.inject({
      method: 'GET',
      url: `/reset-password/${resetToken}`,
      headers: { accept: 'text/html' },
    })
    const reset = await app.inject({
      method: 'POST',
      url: `/api/v1/auth/reset-password/${resetToken}?from=mail`,
      payload: { password: 'a-new-password-7' },
    })
    expect(reset.statusCode).toBe(200)
    await app.inject({
      method: 'POST',
      url: `/api/v1/auth/reset-password/${resetToken}`,
      payload: { password: 'another-password-8' },
    })

    const text = log.text()
    // the log is there: one line per request, with its address
    expect(text).toMatch(/"url":"\/api\/v1\/auth\/profile"/)
    expect(text).toMatch(/"url":"\/api\/v1\/auth\/reset-password\/[^"]*"/)
    for (const secret of [
      user.password,
      'a-wrong-password-9',
      'a-new-password-7',
      'another-password-8',
      ADMIN.password,
      user.token,
      resetToken,
      config.jwt.secret,
    ]) {
      expect(text.includes(secret), `the log holds ${secret}`).toBe(false)
    }
  })

  it('hide a password, token or secret in an object that is logged', () => {
    const { config } = started
    const own = capturedLogger(config)
    own.logger.info({ password: 'pw-in-a-log-1', token: 'tok-in-a-log-2' }, 'attempt')
    own.logger.warn({
      req: { headers: { authorization: 'Bearer tok-in-a-log-3' }, body: { password: 'pw-4' } },
    })
    own.logger.info({ payments: { keySecret: 'ks-in-a-log-5', webhookSecret: 'ws-in-a-log-6' } })
    const text = own.text()
    expect(text).toMatch(/"msg":"attempt"/)
    for (const secret of [
      'pw-in-a-log-1',
      'tok-in-a-log-2',
      'tok-in-a-log-3',
      'pw-4',
      'ks-in-a-log-5',
      'ws-in-a-log-6',
    ]) {
      expect(text).not.toContain(secret)
    }
  })

  it('do not show a password written into REDIS_URL when Redis does not answer', async () => {
    const { config, release } = await testConfigOnStore({ REDIS_URL: 'redis://:redis-pass-61@127.0.0.1:1' })
    const other = capturedLogger(config)
    const app = await buildApp(config, other.logger)
    try {
      expect(other.text()).toMatch(/Redis did not answer at redis:\/\/:\*\*\*@127\.0\.0\.1:1/)
      expect(other.text()).not.toContain('redis-pass-61')
    } finally {
      await app.close()
      await release()
    }
  })
})
