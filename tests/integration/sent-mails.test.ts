// Mails are sent once: a mail job that runs again sends nothing, and a Redis that lost its queued
// mails (here: a new, empty queue prefix on the same data folder) gets the unsent ones again at
// start, and only those.
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Config } from '../../server/config.ts'
import { buildApp } from '../../server/root.ts'
import { mailProcessor } from '../../workers/mail.ts'
import { adminSession, organizerSession, signUp } from '../support/accounts.ts'
import { type StoreConfig, testConfigOnStore } from '../support/app.ts'
import { dbRun } from '../support/db.ts'
import { readOutbox } from '../support/outbox.ts'
import { approvedEvent, buy, until } from '../support/sales.ts'

let store: StoreConfig
let config: Config
beforeAll(async () => {
  store = await testConfigOnStore()
  config = store.config
})
const apps: FastifyInstance[] = []
afterAll(async () => {
  for (const app of apps) await app.close()
  await store?.release()
})

const start = async (queuePrefix: string) => {
  const app = await buildApp({ ...config, queuePrefix })
  apps.push(app)
  return app
}
const stop = async (app: FastifyInstance) => {
  apps.splice(apps.indexOf(app), 1)
  await app.close()
}
const ticketMails = (title: string) => readOutbox(config.outboxDir).filter((m) => m.subject.includes(title))

describe('mails sent once', () => {
  it('a mail job run again sends nothing; after Redis forgot its queue, only the unsent mails go out again', async () => {
    const first = await start(`test-${randomBytes(5).toString('hex')}`)
    const [admin, organizer, asha, ravi] = await Promise.all([
      adminSession(first),
      organizerSession(first),
      signUp(first, 'Asha'),
      signUp(first, 'Ravi'),
    ])
    const event = await approvedEvent(first, organizer, admin, { title: 'Sent Once Mela' })
    const ashaTicket = await buy(first, asha, event)
    const raviTicket = await buy(first, ravi, event)
    await until(() => ticketMails('Sent Once Mela').length === 2)
    const sent = first.platform.store.sentMails
    // recorded once sent: the record follows the mail by a moment
    await until(
      async () =>
        (await sent.wasSent(`mail-issued-${ashaTicket}`)) &&
        (await sent.wasSent(`mail-issued-${raviTicket}`)),
    )

    // The same job run again (a worker killed after sending, before BullMQ heard of it).
    const again = await mailProcessor(
      first.platform.mailer,
      sent,
    )({
      id: `mail-issued-${ashaTicket}`,
      name: 'send',
      data: { to: asha.email, subject: 'Your tickets for Sent Once Mela', text: 'again' },
      attemptsMade: 1,
    })
    expect(again).toEqual({ skipped: 'sent before' })
    expect(ticketMails('Sent Once Mela')).toHaveLength(2)
    await stop(first)

    // Ravi's mail was never sent, as far as the record knows, and the queue it sat in is gone.
    const second = await start(`test-${randomBytes(5).toString('hex')}`)
    expect(await second.platform.store.sentMails.wasSent(`mail-issued-${raviTicket}`)).toBe(true)
    await dbRun(second, 'DELETE FROM sent_mails WHERE job_id = ?', `mail-issued-${raviTicket}`)
    await stop(second)

    const third = await start(`test-${randomBytes(5).toString('hex')}`)
    await until(() => ticketMails('Sent Once Mela').length === 3)
    await new Promise((r) => setTimeout(r, 500))
    const mails = ticketMails('Sent Once Mela')
    expect(mails.filter((m) => m.to === ravi.email)).toHaveLength(2)
    expect(mails.filter((m) => m.to === asha.email)).toHaveLength(1)
    expect(await third.platform.store.sentMails.wasSent(`mail-issued-${raviTicket}`)).toBe(true)
  })
})
