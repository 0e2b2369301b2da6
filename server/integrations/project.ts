// Folds the integrations area's facts into api_tokens (issue 43), on either store.
import { sql } from 'drizzle-orm'
import { statement } from '../db/sql.ts'
import { wait } from '../db/store.ts'
import { readProjection } from '../ledger/read-projection.ts'
import type { IntegrationFact } from './facts.ts'
import { apiTokens, webhookDeliveries, webhookEndpoints } from './tables.ts'

const insertToken = statement<{
  id: string
  accountId: string
  name: string
  scopes: string
  eventIds: string | null
  expiresAt: string | null
  secretHash: string
  at: string
}>(
  (
    p,
  ) => sql`INSERT INTO api_tokens (id, account_id, name, scopes, event_ids, expires_at, secret_hash, created_at)
    VALUES (${p.id}, ${p.accountId}, ${p.name}, ${p.scopes}, ${p.eventIds}, ${p.expiresAt}, ${p.secretHash}, ${p.at})`,
)

const revoke = statement<{ id: string; at: string }>(
  (p) => sql`UPDATE api_tokens SET revoked_at = ${p.at} WHERE id = ${p.id}`,
)

const insertEndpoint = statement<{
  id: string
  organizerId: string
  url: string
  kinds: string
  eventIds: string | null
  at: string
}>(
  (p) => sql`INSERT INTO webhook_endpoints (id, organizer_id, url, kinds, event_ids, created_at)
    VALUES (${p.id}, ${p.organizerId}, ${p.url}, ${p.kinds}, ${p.eventIds}, ${p.at})`,
)
const endpointRemoved = statement<{ id: string; at: string }>(
  (p) => sql`UPDATE webhook_endpoints SET removed_at = ${p.at} WHERE id = ${p.id}`,
)
const endpointDisabled = statement<{ id: string; at: string }>(
  (p) => sql`UPDATE webhook_endpoints SET disabled_at = ${p.at} WHERE id = ${p.id}`,
)
const insertDelivery = statement<{
  id: string
  endpointId: string
  seq: number
  position: number
  kind: string
  at: string
  payload: string
  queuedAt: string
}>(
  (
    p,
  ) => sql`INSERT INTO webhook_deliveries (id, endpoint_id, seq, position, kind, at, payload, status, attempts,
      next_at, queued_at)
    VALUES (${p.id}, ${p.endpointId}, ${p.seq}, ${p.position}, ${p.kind}, ${p.at}, ${p.payload}, 'pending', 0,
      ${p.queuedAt}, ${p.queuedAt})`,
)
const delivered = statement<{ id: string; attempts: number; code: number; at: string }>(
  (
    p,
  ) => sql`UPDATE webhook_deliveries SET status = 'delivered', attempts = ${p.attempts}, last_code = ${p.code},
    last_at = ${p.at} WHERE id = ${p.id}`,
)
const attemptFailed = statement<{
  id: string
  attempts: number
  code: number | null
  at: string
  nextAt: string | null
}>(
  (p) => sql`UPDATE webhook_deliveries SET attempts = ${p.attempts}, last_code = ${p.code}, last_at = ${p.at},
    status = CASE WHEN ${p.nextAt} IS NULL THEN 'failed' ELSE 'pending' END,
    next_at = coalesce(${p.nextAt}, next_at) WHERE id = ${p.id}`,
)
// on again: the give-up clock of what the endpoint is owed starts again from now (queued_at is
// where it counts from)
const endpointOn = statement<{ id: string }>(
  (p) => sql`UPDATE webhook_endpoints SET disabled_at = NULL WHERE id = ${p.id}`,
)
const owedFromNow = statement<{ id: string; at: string }>(
  (p) =>
    sql`UPDATE webhook_deliveries SET queued_at = ${p.at} WHERE endpoint_id = ${p.id} AND status = 'pending'`,
)
const queuedFromNow = statement<{ id: string; at: string }>(
  (p) => sql`UPDATE webhook_deliveries SET queued_at = ${p.at} WHERE id = ${p.id}`,
)
const retryAsked = statement<{ id: string; at: string }>(
  (p) => sql`UPDATE webhook_deliveries SET status = 'pending', next_at = ${p.at} WHERE id = ${p.id}`,
)

export const integrationsProjection = readProjection<IntegrationFact>({
  name: 'integrations',
  tables: [apiTokens, webhookEndpoints, webhookDeliveries],
  handlers: {
    WebhookEndpointAdded: (fact, x) => {
      const d = fact.data
      return x.run(insertEndpoint, {
        id: d.endpointId,
        organizerId: d.organizerId,
        url: d.url,
        kinds: JSON.stringify(d.kinds),
        eventIds: d.eventIds ? JSON.stringify(d.eventIds) : null,
        at: fact.at,
      })
    },
    WebhookEndpointRemoved: (fact, x) => x.run(endpointRemoved, { id: fact.data.endpointId, at: fact.at }),
    WebhookEndpointDisabled: (fact, x) => x.run(endpointDisabled, { id: fact.data.endpointId, at: fact.at }),
    WebhookQueued: (fact, x) => {
      const d = fact.data
      return x.run(insertDelivery, {
        id: d.deliveryId,
        endpointId: d.endpointId,
        seq: fact.position,
        position: d.position,
        kind: d.kind,
        at: d.at,
        payload: JSON.stringify(d.data),
        queuedAt: fact.at,
      })
    },
    WebhookDelivered: (fact, x) =>
      x.run(delivered, {
        id: fact.data.deliveryId,
        attempts: fact.data.attempts,
        code: fact.data.code,
        at: fact.at,
      }),
    WebhookAttemptFailed: (fact, x) =>
      x.run(attemptFailed, {
        id: fact.data.deliveryId,
        attempts: fact.data.attempts,
        code: fact.data.code,
        at: fact.at,
        nextAt: fact.data.nextAt,
      }),
    WebhookEndpointTurnedOn: function* (fact, x) {
      yield* wait(x.run(endpointOn, { id: fact.data.endpointId }))
      yield* wait(x.run(owedFromNow, { id: fact.data.endpointId, at: fact.at }))
    },
    WebhookRetryAsked: function* (fact, x) {
      yield* wait(x.run(retryAsked, { id: fact.data.deliveryId, at: fact.at }))
      // the delivery asked again has its give-up clock from now too
      yield* wait(x.run(queuedFromNow, { id: fact.data.deliveryId, at: fact.at }))
    },
    ApiTokenCreated: (fact, x) => {
      const d = fact.data
      return x.run(insertToken, {
        id: d.tokenId,
        accountId: d.accountId,
        name: d.name,
        scopes: JSON.stringify(d.scopes),
        eventIds: d.eventIds ? JSON.stringify(d.eventIds) : null,
        expiresAt: d.expiresAt,
        secretHash: d.secretHash,
        at: fact.at,
      })
    },
    ApiTokenRevoked: (fact, x) => x.run(revoke, { id: fact.data.tokenId, at: fact.at }),
  },
})
