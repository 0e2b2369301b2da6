// The billing profile (issue 42) on the real app and store (both, by the suite's projects): an
// organizer saves and reads their own, a malformed GSTIN or one of another state is refused with
// a message naming it, without a GSTIN the profile stands (a bill of supply), and only organizers
// have one; the read model equals a rebuild from the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NO_BILLING_PROFILE } from '../../contracts/billing.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { dbRows, rebuildStore } from '../support/db.ts'
import { get } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let organizer: Session

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error' })
  organizer = await organizerSession(app(), 'Rangmanch')
}, 60_000)

afterAll(async () => {
  await server?.close()
})

const put = (who: Session, payload: Record<string, unknown>) =>
  app().inject({ method: 'PUT', url: '/api/v1/organizer/billing', headers: bearer(who.token), payload })

const profile = {
  legalName: 'Rangmanch Productions LLP',
  gstin: '27AAPFU0939F1ZV',
  address: '12 FC Road, Pune 411004',
  state: '27',
  invoicePrefix: 'RMP',
}

describe('PUT and GET /organizer/billing', () => {
  it('saves the organizer’s profile and gives it back, their own only', async () => {
    expect((await get(app(), '/api/v1/organizer/billing', organizer)).json()).toEqual({
      message: NO_BILLING_PROFILE,
    })
    const saved = await put(organizer, { ...profile, gstin: '27aapfu0939f1zv', invoicePrefix: 'rmp' })
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json()).toEqual(profile)
    expect((await get(app(), '/api/v1/organizer/billing', organizer)).json()).toEqual(profile)
    // the same profile sent again (as typed before, or as read back) records nothing new; a change does
    const facts = async () => (await app().platform.ledger.readStream(`billing-${organizer.id}`)).length
    const recorded = await facts()
    for (const again of [profile, { ...profile, gstin: ' 27aapfu0939f1zv ' }]) {
      const res = await put(organizer, again)
      expect([res.statusCode, res.json()]).toEqual([200, profile])
    }
    expect(await facts()).toBe(recorded)
    const moved = await put(organizer, { ...profile, address: '14 FC Road, Pune 411004' })
    expect(moved.json()).toEqual({ ...profile, address: '14 FC Road, Pune 411004' })
    expect(await facts()).toBe(recorded + 1)
    expect((await put(organizer, profile)).json()).toEqual(profile)
    expect(await facts()).toBe(recorded + 2)
    // another organizer has none of it
    const other = await organizerSession(app(), 'Other')
    expect((await get(app(), '/api/v1/organizer/billing', other)).statusCode).toBe(404)
    // buyers and admins have no billing profile here
    expect((await put(await signUp(app()), profile)).statusCode).toBe(403)
    expect((await put(await adminSession(app()), profile)).statusCode).toBe(403)
  })

  it('refuses a malformed GSTIN, or one of another state, naming it; and stands without one', async () => {
    const org = await organizerSession(app(), 'Kalakar')
    const wrong = await put(org, { ...profile, gstin: '27AAPFU0939F1ZW' })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().message).toBe(
      'GSTIN 27AAPFU0939F1ZW has the wrong check character: it should end in V.',
    )
    const elsewhere = await put(org, { ...profile, state: '29' })
    expect([elsewhere.statusCode, elsewhere.json().message]).toEqual([
      400,
      'GSTIN 27AAPFU0939F1ZV is registered in state 27, not in the state given (29).',
    ])
    expect((await put(org, { ...profile, state: '99' })).statusCode).toBe(400)
    expect((await get(app(), '/api/v1/organizer/billing', org)).statusCode).toBe(404)
    const unregistered = await put(org, { ...profile, gstin: null, state: '29' })
    expect(unregistered.statusCode, unregistered.body).toBe(200)
    expect(unregistered.json()).toMatchObject({ gstin: null, state: '29' })
    expect((await put(org, { ...profile, gstin: '', state: '29' })).json().gstin).toBeNull()
  })

  it('keeps the profiles as a rebuild from the ledger makes them', async () => {
    const read = () => dbRows(app(), 'SELECT * FROM billing_profiles ORDER BY organizer_id')
    const before = await read()
    expect(before.length).toBeGreaterThan(0)
    await rebuildStore(app())
    expect(await read()).toEqual(before)
  })
})
