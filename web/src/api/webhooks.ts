// Calls of webhooks (API.md, "Tokens and webhooks"): the signed-in organizer's endpoints, added (the
// signing secret comes back this once), listed, removed; each endpoint's deliveries, and one of
// them sent again.
import * as v from 'valibot'
import { MessageReply } from '../../../contracts/common.ts'
import {
  CreatedWebhookView,
  type CreateWebhookBody,
  DeliveryView,
  WebhookView,
} from '../../../contracts/webhooks.ts'
import { api } from './client.ts'

export type Webhook = v.InferOutput<typeof WebhookView>
export type CreatedWebhook = v.InferOutput<typeof CreatedWebhookView>
export type Delivery = v.InferOutput<typeof DeliveryView>
export type { CreateWebhookBody }

const path = (id: string) => `/organizer/webhooks/${encodeURIComponent(id)}`

/** GET /organizer/webhooks: the organizer's endpoints, with when each was turned off, if it was */
export const fetchWebhooks = async (): Promise<Webhook[]> =>
  v.parse(v.array(WebhookView), await api.get<unknown>('/organizer/webhooks'))

/** POST /organizer/webhooks: the endpoint added, with its signing secret (shown once, never again) */
export const createWebhook = async (body: CreateWebhookBody): Promise<CreatedWebhook> =>
  v.parse(CreatedWebhookView, await api.post<unknown>('/organizer/webhooks', body))

/** DELETE /organizer/webhooks/{id}: the server's word that it is removed (nothing more is sent) */
export const removeWebhook = async (id: string): Promise<string> =>
  v.parse(MessageReply, await api.delete<unknown>(path(id))).message

/** GET /organizer/webhooks/{id}/deliveries: what was queued for the endpoint, and how each went */
export const fetchDeliveries = async (id: string): Promise<Delivery[]> =>
  v.parse(v.array(DeliveryView), await api.get<unknown>(`${path(id)}/deliveries`))

/** POST /organizer/webhooks/{id}/deliveries/{deliveryId}/retry: the server's word it is sent again */
export const retryDelivery = async (id: string, deliveryId: string): Promise<string> =>
  v.parse(
    MessageReply,
    await api.post<unknown>(`${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`),
  ).message
