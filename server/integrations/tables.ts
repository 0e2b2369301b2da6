// The integrations area's read models (issue 43), declared once for both stores.
import type { TokenScope } from '../../contracts/tokens.ts'
import type { WebhookKind } from '../../contracts/webhooks.ts'
import { type RowOf, readModelTable } from '../db/read-model.ts'

export const apiTokens = readModelTable(
  'api_tokens',
  (k) => ({
    id: k.text('id').primaryKey(),
    accountId: k.text('account_id').notNull(),
    name: k.text('name').notNull(),
    scopes: k.json<TokenScope[]>('scopes').notNull(),
    eventIds: k.json<string[] | null>('event_ids'),
    expiresAt: k.text('expires_at'),
    secretHash: k.text('secret_hash').notNull(),
    createdAt: k.text('created_at').notNull(),
    revokedAt: k.text('revoked_at'),
  }),
  (t, i) => [i.index('api_tokens_account').on(t.accountId)],
)

export type ApiTokenRow = RowOf<typeof apiTokens>

export const webhookEndpoints = readModelTable(
  'webhook_endpoints',
  (k) => ({
    id: k.text('id').primaryKey(),
    organizerId: k.text('organizer_id').notNull(),
    url: k.text('url').notNull(),
    kinds: k.json<WebhookKind[]>('kinds').notNull(),
    eventIds: k.json<string[] | null>('event_ids'),
    createdAt: k.text('created_at').notNull(),
    disabledAt: k.text('disabled_at'),
    removedAt: k.text('removed_at'),
  }),
  (t, i) => [i.index('webhook_endpoints_organizer').on(t.organizerId)],
)

/** each fact owed to an endpoint and what became of it; `seq` is the order it was queued in */
export const webhookDeliveries = readModelTable(
  'webhook_deliveries',
  (k) => ({
    id: k.text('id').primaryKey(),
    endpointId: k.text('endpoint_id').notNull(),
    seq: k.bigint('seq').notNull(),
    position: k.bigint('position').notNull(),
    kind: k.text('kind').notNull().$type<WebhookKind>(),
    at: k.text('at').notNull(),
    payload: k.json<Record<string, unknown>>('payload').notNull(),
    status: k.text('status').notNull().$type<'pending' | 'delivered' | 'failed'>(),
    attempts: k.integer('attempts').notNull(),
    lastCode: k.integer('last_code'),
    lastAt: k.text('last_at'),
    nextAt: k.text('next_at').notNull(),
    queuedAt: k.text('queued_at').notNull(),
  }),
  (t, i) => [
    i.index('webhook_deliveries_endpoint').on(t.endpointId, t.status, t.seq),
    i.index('webhook_deliveries_due').on(t.status, t.nextAt),
  ],
)

export type WebhookEndpointRow = RowOf<typeof webhookEndpoints>
export type WebhookDeliveryRow = RowOf<typeof webhookDeliveries>
