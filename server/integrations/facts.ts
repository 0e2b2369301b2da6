// Facts of an account's API tokens (issue 43), on the stream tokens-<accountId>. A token's secret
// is never kept: only its SHA-256, against which a request's token is checked.
import type { TokenScope } from '../../contracts/tokens.ts'

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

export type IntegrationFact = ApiTokenCreated | ApiTokenRevoked
