// Webhooks (issue 43): an organizer's endpoints, each told of the kinds of facts it asks for, for
// all or some of their events, signed per the Standard Webhooks specification.
import * as v from 'valibot'
import { PathParams } from './common.ts'

export const webhookKinds = [
  'order.paid',
  'order.cancelled',
  'order.refunded',
  'ticket.transferred',
  'checkin.admitted',
  'event.approved',
  'event.rejected',
  'waitlist.offered',
] as const
export type WebhookKind = (typeof webhookKinds)[number]

export const CreateWebhookBody = v.object({
  url: v.pipe(
    v.string('URL is required.'),
    v.trim(),
    v.url('URL must be a URL (https://…).'),
    v.maxLength(2000, 'URL must be at most 2,000 characters.'),
  ),
  events: v.pipe(
    v.array(
      v.picklist(webhookKinds, `Events must be some of ${webhookKinds.join(', ')}.`),
      'Events must be a list.',
    ),
    v.minLength(1, 'Choose at least one kind of event.'),
    v.transform((kinds) => [...new Set(kinds)]),
  ),
  eventIds: v.optional(
    v.nullable(
      v.pipe(
        v.array(
          v.pipe(v.string('An event id must be text.'), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Event not found.')),
        ),
        v.minLength(1, 'Name at least one event, or leave eventIds out for all of them.'),
        v.maxLength(100, 'An endpoint can be for at most 100 events.'),
        v.transform((ids) => [...new Set(ids)]),
      ),
    ),
  ),
})
export type CreateWebhookBody = v.InferOutput<typeof CreateWebhookBody>

export const WebhookView = v.object({
  id: v.string(),
  url: v.string(),
  events: v.array(v.string()),
  eventIds: v.nullable(v.array(v.string())),
  /** when it was turned off after failing for WEBHOOK_GIVE_UP_HOURS, or null */
  disabledAt: v.nullable(v.string()),
})
export const CreatedWebhookView = v.object({
  id: v.string(),
  url: v.string(),
  events: v.array(v.string()),
  eventIds: v.nullable(v.array(v.string())),
  /** the signing secret (whsec_…): shown this once */
  secret: v.string(),
})

export const DeliveryView = v.object({
  id: v.string(),
  type: v.string(),
  position: v.number(),
  status: v.picklist(['pending', 'delivered', 'failed']),
  attempts: v.number(),
  lastCode: v.nullable(v.number()),
  lastAt: v.nullable(v.string()),
})

export const WebhookParams = PathParams({
  id: v.pipe(v.string(), v.regex(/^[a-f0-9]{24}$/, 'Webhook not found.')),
})
export const DeliveryParams = PathParams({
  id: v.pipe(v.string(), v.regex(/^[a-f0-9]{24}$/, 'Webhook not found.')),
  deliveryId: v.pipe(v.string(), v.regex(/^[a-f0-9]{24}-\d{1,15}$/, 'Delivery not found.')),
})

export const WEBHOOK_NOT_FOUND = 'Webhook not found.'
export const DELIVERY_NOT_FOUND = 'Delivery not found.'
export const WEBHOOK_REMOVED = 'Webhook removed.'
export const DELIVERY_AGAIN = 'The delivery will be sent again.'
export const HTTPS_ONLY = 'URL must be https.'
/** endpoints one organizer may have at once: each is sent every fact it asks for */
export const MAX_WEBHOOKS = 20
export const TOO_MANY_WEBHOOKS = `You have ${MAX_WEBHOOKS} webhooks: remove one before adding another.`
/** user:password@ in the address would be kept and shown with it: a receiver checks the signature instead */
export const NO_CREDENTIALS_IN_URL =
  'A webhook URL may not hold a user name or password: check our signature header instead.'
export const NO_PORT_ZERO = 'A webhook URL may not name port 0.'
export const privateDestination = (host: string) =>
  `${host} is a loopback, private, link-local or metadata address: webhooks are not sent there.`
