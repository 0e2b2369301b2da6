// What the webhooks screen works out (web/src/screens/integrations): the form's draft checked by the
// server's own schema into the body it sends, the field each message of a refusal belongs to, and
// how an endpoint's state and a delivery's row read.
import { describe, expect, it } from 'vitest'
import { webhookKinds } from '../../contracts/webhooks.ts'
import type { Delivery } from '../../web/src/api/webhooks.ts'
import {
  checkWebhookDraft,
  deliveriesRefetchMs,
  deliveryCells,
  emptyWebhookDraft,
  inKindOrder,
  turnedOffText,
  type WebhookDraft,
  webhookErrorsOf,
  webhookFieldOf,
} from '../../web/src/screens/integrations/webhook-form.ts'
import { kindTexts, webhookTexts } from '../../web/src/screens/integrations/webhook-texts.ts'
import { formatDay, formatInstantIn } from '../../web/src/ui/format.ts'

const draft = (changes: Partial<WebhookDraft>): WebhookDraft => ({ ...emptyWebhookDraft, ...changes })

describe('a new webhook’s form, checked before it is sent', () => {
  it('sends the URL trimmed and the kinds in the order they are listed, for all events', () => {
    const checked = checkWebhookDraft(
      draft({ url: '  https://hooks.example.com/in ', kinds: ['order.refunded', 'order.paid'] }),
    )
    expect(checked).toEqual({
      ok: true,
      body: { url: 'https://hooks.example.com/in', events: ['order.paid', 'order.refunded'] },
    })
  })

  it('binds the webhook to the events chosen, and to none of them while all are asked for', () => {
    const some = checkWebhookDraft(
      draft({ url: 'https://h.example.com', kinds: ['order.paid'], scope: 'some', eventIds: ['e1', 'e2'] }),
    )
    expect(some.ok && some.body.eventIds).toEqual(['e1', 'e2'])
    const all = checkWebhookDraft(
      draft({ url: 'https://h.example.com', kinds: ['order.paid'], scope: 'all', eventIds: ['e1'] }),
    )
    expect(all.ok && 'eventIds' in all.body).toBe(false)
  })

  it('leaves http to the server, which allows it only for a receiver on this machine when told to', () => {
    expect(checkWebhookDraft(draft({ url: 'http://127.0.0.1:9000/hooks', kinds: ['order.paid'] })).ok).toBe(
      true,
    )
  })

  it('names every field that is wrong at once, in the server’s words', () => {
    expect(checkWebhookDraft(draft({ url: 'not a url', scope: 'some' }))).toEqual({
      ok: false,
      errors: {
        url: 'URL must be a URL (https://…).',
        events: 'Choose at least one kind of event.',
        eventIds: webhookTexts.chooseEvents,
      },
    })
    expect(checkWebhookDraft(draft({ kinds: ['order.paid'] }))).toEqual({
      ok: false,
      errors: { url: 'URL must be a URL (https://…).' },
    })
  })

  it('keeps the kinds in the server’s order whatever order they were ticked in', () => {
    expect(inKindOrder(['waitlist.offered', 'order.paid', 'checkin.admitted'])).toEqual([
      'order.paid',
      'checkin.admitted',
      'waitlist.offered',
    ])
  })

  it('explains every kind in a plain line', () => {
    expect(Object.keys(kindTexts).sort()).toEqual([...webhookKinds].sort())
    expect(kindTexts['order.paid']).toBe('A ticket is paid')
    expect(kindTexts['checkin.admitted']).toBe('Someone is let in at the door')
  })
})

describe('a refusal’s messages at their fields', () => {
  it('puts a message about an item of a list at the list’s field, and others at the form', () => {
    expect(webhookFieldOf('url')).toBe('url')
    expect(webhookFieldOf('events.1')).toBe('events')
    expect(webhookFieldOf('eventIds.0')).toBe('eventIds')
    expect(webhookFieldOf('request')).toBe('form')
    expect(webhookFieldOf(null)).toBe('form')
  })

  it('keeps the first message of each field', () => {
    expect(
      webhookErrorsOf({
        url: 'URL must be https.',
        'eventIds.0': 'Event not found.',
        eventIds: 'Event x is not one of yours.',
        form: 'Something went wrong.',
      }),
    ).toEqual({ url: 'URL must be https.', eventIds: 'Event not found.', form: 'Something went wrong.' })
  })
})

describe('an endpoint and its deliveries as read', () => {
  const delivery = (changes: Partial<Delivery>): Delivery => ({
    id: `${'a'.repeat(24)}-7`,
    type: 'order.paid',
    position: 7,
    status: 'pending',
    attempts: 0,
    lastCode: null,
    lastAt: null,
    ...changes,
  })

  it('badges an endpoint turned off with the day, and none that is on', () => {
    expect(turnedOffText(null)).toBeNull()
    expect(turnedOffText('2027-01-10T06:30:00.000Z')).toBe(
      `Turned off ${formatDay('2027-01-10T06:30:00.000Z')}`,
    )
  })

  it('reads a delivery not yet tried with dashes, and one delivered with its code and time', () => {
    expect(deliveryCells(delivery({}))).toEqual({
      type: 'order.paid',
      position: '7',
      status: 'Pending',
      attempts: '0',
      lastCode: '–',
      lastAt: '–',
    })
    const at = '2027-01-10T06:30:00.000Z'
    expect(
      deliveryCells(delivery({ status: 'delivered', attempts: 2, lastCode: 200, lastAt: at })),
    ).toMatchObject({
      status: 'Delivered',
      attempts: '2',
      lastCode: '200',
      lastAt: formatInstantIn(at),
    })
    expect(deliveryCells(delivery({ status: 'failed', lastCode: 500 })).status).toBe('Failed')
  })

  it('watches the deliveries closely while some are still to go out', () => {
    expect(deliveriesRefetchMs([delivery({ status: 'delivered' }), delivery({})])).toBe(1000)
    expect(deliveriesRefetchMs([delivery({ status: 'delivered' })])).toBe(5000)
    expect(deliveriesRefetchMs(undefined)).toBe(5000)
  })
})
