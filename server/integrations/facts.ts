// Facts of an account's API tokens (issue 43), on the stream tokens-<accountId>. A token's secret
// is never kept: only its SHA-256, against which a request's token is checked.
import type { TokenScope } from '../../contracts/tokens.ts'
import type { WebhookKind } from '../../contracts/webhooks.ts'

export type ApiTokenCreated = {
  type: 'ApiTokenCreated'
  data: {
    tokenId: string
    accountId: string
    name: string
    scopes: TokenScope[]
    /** null: every event of the account's */
    eventIds: string[] | null
    expiresAt: string | null
    /** hex SHA-256 of the secret */
    secretHash: string
  }
}

/** The token is refused from now on, in every process (each request reads its row). */
export type ApiTokenRevoked = {
  type: 'ApiTokenRevoked'
  data: { tokenId: string; accountId: string; by: string }
}

/** An organizer's endpoint (issue 43), on webhooks-<organizerId>; its signing secret is derived, never kept. */
export type WebhookEndpointAdded = {
  type: 'WebhookEndpointAdded'
  data: {
    endpointId: string
    organizerId: string
    url: string
    kinds: WebhookKind[]
    eventIds: string[] | null
  }
}
export type WebhookEndpointRemoved = {
  type: 'WebhookEndpointRemoved'
  data: { endpointId: string; organizerId: string; by: string }
}

/**
 * A fact of the ledger is owed to an endpoint (on webhook-<endpointId>): queued by the checkpointed
 * consumer in its reading order, which is the order the endpoint receives them in.
 */
export type WebhookQueued = {
  type: 'WebhookQueued'
  data: {
    endpointId: string
    /** `<endpointId>-<position>`: the webhook-id header, the same on every attempt */
    deliveryId: string
    position: number
    kind: WebhookKind
    /** when the fact happened */
    at: string
    data: Record<string, unknown>
  }
}
export type WebhookDelivered = {
  type: 'WebhookDelivered'
  data: { endpointId: string; deliveryId: string; attempts: number; code: number }
}
/** An attempt failed (no 2xx in time); `nextAt` the next try, or null once given up. */
export type WebhookAttemptFailed = {
  type: 'WebhookAttemptFailed'
  data: {
    endpointId: string
    deliveryId: string
    attempts: number
    code: number | null
    error: string
    nextAt: string | null
  }
}
/** The endpoint failed for WEBHOOK_GIVE_UP_HOURS: nothing more is sent to it; its owner is mailed. */
export type WebhookEndpointDisabled = {
  type: 'WebhookEndpointDisabled'
  data: { endpointId: string; organizerId: string; url: string; reason: string }
}
/**
 * Its owner asked a delivery of an endpoint turned off to be sent again: the endpoint is on again,
 * and what it is owed is given WEBHOOK_GIVE_UP_HOURS from now.
 */
export type WebhookEndpointTurnedOn = {
  type: 'WebhookEndpointTurnedOn'
  data: { endpointId: string; by: string }
}
/** Its owner asked a delivery to be sent again. */
export type WebhookRetryAsked = {
  type: 'WebhookRetryAsked'
  data: { endpointId: string; deliveryId: string; by: string }
}

export type IntegrationFact =
  | ApiTokenCreated
  | ApiTokenRevoked
  | WebhookEndpointAdded
  | WebhookEndpointRemoved
  | WebhookQueued
  | WebhookDelivered
  | WebhookAttemptFailed
  | WebhookEndpointDisabled
  | WebhookEndpointTurnedOn
  | WebhookRetryAsked
