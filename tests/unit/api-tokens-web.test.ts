// What the API tokens screen works out (web/src/screens/integrations): the form's draft checked by
// the server's own schema into the body it sends, the field each message of a refusal belongs to,
// and how a token's events, expiry and last use read in its row.
import { describe, expect, it } from 'vitest'
import { EXPIRES_IN_PAST } from '../../contracts/tokens.ts'
import {
  checkTokenDraft,
  emptyDraft,
  eventsText,
  expiryOf,
  fieldOf,
  type TokenDraft,
  tokenErrorsOf,
  whenOrNever,
} from '../../web/src/screens/integrations/token-form.ts'
import { tokenTexts } from '../../web/src/screens/integrations/token-texts.ts'
import { formatInstantIn } from '../../web/src/ui/format.ts'

const NOW = new Date(2027, 0, 10, 12, 0)
const draft = (changes: Partial<TokenDraft>): TokenDraft => ({ ...emptyDraft, ...changes })

describe('a new token’s form, checked before it is sent', () => {
  it('sends the name trimmed and the scopes, for all events and no expiry when none is chosen', () => {
    const checked = checkTokenDraft(
      draft({ name: '  Kiosk ', scopes: ['events:read', 'checkin:write'] }),
      NOW,
    )
    expect(checked).toEqual({ ok: true, body: { name: 'Kiosk', scopes: ['events:read', 'checkin:write'] } })
  })

  it('binds the token to the events chosen, and to none of them while all are asked for', () => {
    const some = checkTokenDraft(
      draft({ name: 'Door', scopes: ['checkin:write'], events: 'some', eventIds: ['e1', 'e2'] }),
      NOW,
    )
    expect(some.ok && some.body.eventIds).toEqual(['e1', 'e2'])
    const all = checkTokenDraft(
      draft({ name: 'Door', scopes: ['checkin:write'], events: 'all', eventIds: ['e1'] }),
      NOW,
    )
    expect(all.ok && all.body.eventIds).toBeUndefined()
  })

  it('lets the token work through the day chosen: it expires at the start of the next, here', () => {
    const checked = checkTokenDraft(
      draft({ name: 'Report', scopes: ['orders:read'], expires: '2027-01-31' }),
      NOW,
    )
    expect(checked.ok && checked.body.expiresAt).toBe(new Date(2027, 1, 1).toISOString())
    expect(expiryOf('2027-12-31')).toEqual(new Date(2028, 0, 1))
    expect(expiryOf('31/12/2027')).toBeNull()
  })

  it('names every field that is wrong at once, in the server’s words', () => {
    const checked = checkTokenDraft(draft({ name: ' ', events: 'some', expires: '2027-01-09' }), NOW)
    expect(checked).toEqual({
      ok: false,
      errors: {
        name: 'Name is required.',
        scopes: 'Choose at least one scope.',
        eventIds: tokenTexts.chooseEvents,
        expiresAt: EXPIRES_IN_PAST,
      },
    })
  })

  it('takes today as a last day, not yesterday', () => {
    const today = checkTokenDraft(draft({ name: 'T', scopes: ['events:read'], expires: '2027-01-10' }), NOW)
    expect(today.ok).toBe(true)
  })
})

describe('a refusal’s messages at their fields', () => {
  it('puts a message about an item of a list at the list’s field, and others at the form', () => {
    expect(fieldOf('scopes.1')).toBe('scopes')
    expect(fieldOf('eventIds')).toBe('eventIds')
    expect(fieldOf('request')).toBe('form')
    expect(fieldOf(undefined)).toBe('form')
  })

  it('keeps the first message of each field', () => {
    expect(
      tokenErrorsOf({
        'eventIds.0': 'Event not found.',
        eventIds: 'Event x is not one of yours.',
        form: 'Something went wrong.',
      }),
    ).toEqual({ eventIds: 'Event not found.', form: 'Something went wrong.' })
  })
})

describe('a token’s row', () => {
  const titles = new Map([
    ['a', 'Sitar Evening'],
    ['b', 'Jazz Night'],
  ])

  it('says All for a token of every event, the titles of a few, or how many', () => {
    expect(eventsText(null, titles)).toBe('All')
    expect(eventsText(['a', 'b'], titles)).toBe('Sitar Evening, Jazz Night')
    expect(eventsText(['a', 'unknown'], titles)).toBe('2 events')
    expect(eventsText(['unknown'], titles)).toBe('1 event')
    expect(eventsText(['a', 'b', 'a2', 'b2'], titles)).toBe('4 events')
  })

  it('says Never for a token never used or without expiry, and the date and time otherwise', () => {
    expect(whenOrNever(null)).toBe('Never')
    // in the viewer's zone, labelled with it (the other screens' times are the event's, labelled)
    expect(whenOrNever('2027-01-10T06:30:00.000Z')).toBe(formatInstantIn('2027-01-10T06:30:00.000Z'))
  })
})
