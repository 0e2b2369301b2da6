// An admin's reason for approving or rejecting an event (API.md: PUT /admin/events/{id}/status takes
// `reason?`, and the organizer sees it): kept in the fact, shown in the event's views and on the
// organizer's attendee list, replaced by the next decision, and rebuilt from the ledger.
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, bearer, organizerSession, type Session } from '../support/accounts.ts'
import { startApp, type TestApp } from '../support/app.ts'
import { submitEvent } from '../support/events.ts'

let t: TestApp
let app: FastifyInstance
let admin: Session
let organizer: Session
beforeAll(async () => {
  t = await startApp()
  app = t.app
  admin = await adminSession(app)
  organizer = await organizerSession(app)
})
afterAll(async () => {
  await t?.close()
})

const decide = (eventId: string, payload: Record<string, unknown>) =>
  app.inject({
    method: 'PUT',
    url: `/api/v1/admin/events/${eventId}/status`,
    headers: bearer(admin.token),
    payload,
  })
const asOrganizer = (url: string) => app.inject({ method: 'GET', url, headers: bearer(organizer.token) })

describe('PUT /admin/events/{id}/status with a reason', () => {
  it('keeps the reason, shows it to the organizer, and replaces it with the next decision', async () => {
    const event = await submitEvent(app, organizer)
    const rejected = await decide(event._id, {
      status: 'Rejected',
      reason: '  The venue is not confirmed.  ',
    })
    expect(rejected.statusCode, rejected.body).toBe(200)
    expect(rejected.json()).toMatchObject({
      message: 'Event rejected !',
      event: { approvalStatus: 'Rejected', reviewReason: 'The venue is not confirmed.' },
    })
    const fact = (await app.platform.ledger.readStream(`event-${event._id}`)).at(-1)
    expect(fact).toMatchObject({ type: 'EventRejected', data: { reason: 'The venue is not confirmed.' } })

    expect((await asOrganizer(`/api/v1/event/${event._id}`)).json().reviewReason).toBe(
      'The venue is not confirmed.',
    )
    const mine = (await asOrganizer('/api/v1/organizers/attendees')).json() as Array<{
      _id: string
      reviewReason: string | null
    }>
    expect(mine.find((e) => e._id === event._id)?.reviewReason).toBe('The venue is not confirmed.')

    const approved = await decide(event._id, { status: 'Approved' })
    expect(approved.json().event).toMatchObject({ approvalStatus: 'Approved', reviewReason: null })
  })

  it('takes no reason as none, and refuses one over 500 characters with 400, changing nothing', async () => {
    const event = await submitEvent(app, organizer)
    const blank = await decide(event._id, { status: 'Rejected', reason: '   ' })
    expect(blank.json().event.reviewReason).toBeNull()
    const head = await app.platform.ledger.head()
    const long = await decide(event._id, { status: 'Approved', reason: 'x'.repeat(501) })
    expect(long.statusCode).toBe(400)
    expect(long.json().message).toBe('The reason is too long (500 characters at most).')
    expect(await app.platform.ledger.head()).toBe(head)
  })
})
