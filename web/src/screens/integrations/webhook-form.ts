// What the webhooks screen works out: the form's draft checked by the server's own schema into the
// body to send (or a message per field), the field a server's message belongs to, and how an
// endpoint's state and a delivery's row read.
import * as v from 'valibot'
import { CreateWebhookBody, type WebhookKind, webhookKinds } from '../../../../contracts/webhooks.ts'
import type { Delivery } from '../../api/webhooks.ts'
import { formatDay, formatInstantIn } from '../../ui/format.ts'
import { webhookTexts } from './webhook-texts.ts'

export type WebhookDraft = {
  url: string
  kinds: WebhookKind[]
  /** all of the organizer's events, or only those in eventIds */
  scope: 'all' | 'some'
  eventIds: string[]
}

export const emptyWebhookDraft: WebhookDraft = { url: '', kinds: [], scope: 'all', eventIds: [] }

export type WebhookField = 'url' | 'events' | 'eventIds' | 'form'
export type WebhookErrors = Partial<Record<WebhookField, string>>

const fields: readonly WebhookField[] = ['url', 'events', 'eventIds']

/** the form's field a message of the server (or of the schema) names: `events.2` is Events' */
export function webhookFieldOf(path: string | undefined | null): WebhookField {
  const first = (path ?? '').split('.')[0] as WebhookField
  return fields.includes(first) ? first : 'form'
}

/** a refused add's messages keyed by the form's fields, the first of each kept */
export function webhookErrorsOf(messages: Record<string, string>): WebhookErrors {
  const errors: WebhookErrors = {}
  for (const [path, message] of Object.entries(messages)) errors[webhookFieldOf(path)] ??= message
  return errors
}

/** the kinds chosen in the order the server lists them (as the checkboxes are shown) */
export const inKindOrder = (kinds: readonly WebhookKind[]): WebhookKind[] =>
  webhookKinds.filter((kind) => kinds.includes(kind))

/**
 * the draft checked by the server's schema: the body to send, or a message per field. Whether the
 * address may be http (a test receiver on this machine) is the server's to say.
 */
export function checkWebhookDraft(
  draft: WebhookDraft,
): { ok: true; body: CreateWebhookBody } | { ok: false; errors: WebhookErrors } {
  const errors: WebhookErrors = {}
  if (draft.scope === 'some' && draft.eventIds.length === 0) errors.eventIds = webhookTexts.chooseEvents
  const checked = v.safeParse(CreateWebhookBody, {
    url: draft.url,
    events: inKindOrder(draft.kinds),
    ...(draft.scope === 'some' && draft.eventIds.length > 0 ? { eventIds: draft.eventIds } : {}),
  })
  if (!checked.success)
    for (const issue of checked.issues) errors[webhookFieldOf(v.getDotPath(issue))] ??= issue.message
  if (checked.success && Object.keys(errors).length === 0) return { ok: true, body: checked.output }
  return { ok: false, errors }
}

/** an endpoint's badge when it was turned off: Turned off and the day, or none */
export const turnedOffText = (disabledAt: string | null): string | null =>
  disabledAt === null ? null : webhookTexts.turnedOff(formatDay(disabledAt))

/** a delivery's row as read: its status in words, its last code and time, or a dash */
export function deliveryCells(delivery: Delivery) {
  return {
    type: delivery.type,
    position: String(delivery.position),
    status: webhookTexts.status[delivery.status],
    attempts: String(delivery.attempts),
    lastCode: delivery.lastCode === null ? webhookTexts.none_ : String(delivery.lastCode),
    lastAt: delivery.lastAt === null ? webhookTexts.none_ : formatInstantIn(delivery.lastAt),
  }
}

/** deliveries are watched while some are still to go out, and a little while after */
export const deliveriesRefetchMs = (deliveries: readonly Delivery[] | undefined): number =>
  deliveries?.some((delivery) => delivery.status === 'pending') ? 1000 : 5000

/** the organizer's endpoints, as the Webhooks screen reads them */
export const webhooksKey = ['webhooks'] as const
