// Reads of the integrations area (issue 43), on either store.
import { sql } from 'drizzle-orm'
import { after, type Now, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import {
  type ApiTokenRow,
  apiTokens,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  webhookDeliveries,
  webhookEndpoints,
} from './tables.ts'

const byId = statement<{ id: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${apiTokens.columns()} FROM api_tokens WHERE id = ${p.id}`,
)

const ofAccount = statement<{ accountId: string }, Record<string, unknown>>(
  (
    p,
  ) => sql`SELECT ${apiTokens.columns()} FROM api_tokens WHERE account_id = ${p.accountId} AND revoked_at IS NULL
    ORDER BY created_at, id`,
)

export function integrationQueries(x: Sql) {
  const row = apiTokens.decode(x.dialect)
  return {
    /** a token by its id (revoked ones too) */
    token: (id: string) =>
      after(x.get(byId, { id }), (found) => (found ? (row(found) as ApiTokenRow) : undefined)),
    /** an account's tokens not revoked, oldest first */
    tokensOf: (accountId: string) =>
      after(x.all(ofAccount, { accountId }), (rows) => rows.map((r) => row(r) as ApiTokenRow)),
  }
}

export type IntegrationQueriesNow = Now<ReturnType<typeof integrationQueries>>
export type IntegrationQueries = AsyncQueries<ReturnType<typeof integrationQueries>>

const endpointById = statement<{ id: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${webhookEndpoints.columns()} FROM webhook_endpoints WHERE id = ${p.id}`,
)
const endpointsOf = statement<{ organizerId: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${webhookEndpoints.columns()} FROM webhook_endpoints
    WHERE organizer_id = ${p.organizerId} AND removed_at IS NULL ORDER BY created_at, id`,
)
const deliveryById = statement<{ id: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${webhookDeliveries.columns()} FROM webhook_deliveries WHERE id = ${p.id}`,
)
const deliveriesOf = statement<{ endpointId: string; limit: number }, Record<string, unknown>>(
  (p) => sql`SELECT ${webhookDeliveries.columns()} FROM webhook_deliveries WHERE endpoint_id = ${p.endpointId}
    ORDER BY seq DESC LIMIT ${p.limit}`,
)
/**
 * each live endpoint's first pending delivery, when it is due: what the deliverer sends next. Read
 * from the endpoints, one index probe each for its head: read from the pending deliveries instead,
 * every pending row was visited on every call (there are never `limit` heads to stop at), so a
 * backlog of n made each call O(n) and draining it O(n²) (18,000 owed: ~34 ms a call, for at most
 * one delivery an endpoint).
 */
const dueHeads = statement<{ now: string; limit: number }, Record<string, unknown>>(
  (p) => sql`SELECT ${webhookDeliveries.columns('d')} FROM webhook_endpoints e
    JOIN webhook_deliveries d ON d.id = (SELECT f.id FROM webhook_deliveries f
      WHERE f.endpoint_id = e.id AND f.status = 'pending' ORDER BY f.seq LIMIT 1)
    WHERE e.removed_at IS NULL AND e.disabled_at IS NULL AND d.next_at <= ${p.now}
    ORDER BY d.next_at LIMIT ${p.limit}`,
)
/** an endpoint's first pending deliveries, in the order they are owed */
const pendingOf = statement<{ endpointId: string; limit: number }, Record<string, unknown>>(
  (p) => sql`SELECT ${webhookDeliveries.columns()} FROM webhook_deliveries
    WHERE endpoint_id = ${p.endpointId} AND status = 'pending' ORDER BY seq LIMIT ${p.limit}`,
)
/** the first pending delivery of an endpoint (the one before all others) */
const headOf = statement<{ endpointId: string }, { id: string }>(
  (p) => sql`SELECT id FROM webhook_deliveries WHERE endpoint_id = ${p.endpointId} AND status = 'pending'
    ORDER BY seq LIMIT 1`,
)

export function webhookQueries(x: Sql) {
  const endpoint = webhookEndpoints.decode(x.dialect)
  const delivery = webhookDeliveries.decode(x.dialect)
  const endpoints = (rows: Record<string, unknown>[]) => rows.map((r) => endpoint(r) as WebhookEndpointRow)
  const deliveries = (rows: Record<string, unknown>[]) => rows.map((r) => delivery(r) as WebhookDeliveryRow)
  return {
    endpoint: (id: string) =>
      after(x.get(endpointById, { id }), (r) => (r ? (endpoint(r) as WebhookEndpointRow) : undefined)),
    /** an organizer's endpoints not removed (disabled ones too) */
    endpointsOf: (organizerId: string) => after(x.all(endpointsOf, { organizerId }), endpoints),
    delivery: (id: string) =>
      after(x.get(deliveryById, { id }), (r) => (r ? (delivery(r) as WebhookDeliveryRow) : undefined)),
    /** an endpoint's latest deliveries, newest first */
    deliveriesOf: (endpointId: string, limit = 200) =>
      after(x.all(deliveriesOf, { endpointId, limit }), deliveries),
    dueHeads: (now: string, limit = 100) => after(x.all(dueHeads, { now, limit }), deliveries),
    pendingOf: (endpointId: string, limit: number) =>
      after(x.all(pendingOf, { endpointId, limit }), deliveries),
    headOf: (endpointId: string) => after(x.get(headOf, { endpointId }), (r) => r?.id),
  }
}

export type WebhookQueries = AsyncQueries<ReturnType<typeof webhookQueries>>
