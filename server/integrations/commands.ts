// The integrations area's decisions (issue 43): an account makes and revokes its API tokens, each a
// fact of its stream tokens-<accountId>, decided against that stream (a token revoked once, by its
// owner).
import { createHash, randomBytes } from 'node:crypto'
import {
  API_TOKEN_PREFIX,
  type CreateTokenBody,
  MAX_TOKENS,
  TOKEN_NOT_FOUND,
  TOO_MANY_TOKENS,
} from '../../contracts/tokens.ts'
import { decisionLocks, type LedgerPort } from '../db/store.ts'
import { conflict, notFound } from '../errors.ts'
import { newId, streams } from '../ids.ts'
import { type Decider, handleCommand } from '../ledger/decider.ts'
import type { FactMeta } from '../ledger/ledger.ts'
import type { ApiTokenCreated, ApiTokenRevoked } from './facts.ts'

type TokenFact = ApiTokenCreated | ApiTokenRevoked

/** the hash a token's secret is kept as */
export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex')

/** the account's tokens not revoked (expired ones too, which may still be revoked) */
type TokensState = {
  tokens: Readonly<Record<string, { expiresAt: string | null }>>
}
type TokensCommand =
  | { type: 'Create'; data: ApiTokenCreated['data']; now: string }
  | { type: 'Revoke'; tokenId: string; accountId: string; by: string }

export const tokensDecider: Decider<TokensState, TokensCommand, TokenFact> = {
  // a decision reads the state kept every 64 facts and those after it, not every token ever made
  snapshot: { kind: 'tokens-1', after: new Set(), every: 64 },
  initialState: () => ({ tokens: {} }),
  evolve(state, fact) {
    switch (fact.type) {
      case 'ApiTokenCreated':
        return { tokens: { ...state.tokens, [fact.data.tokenId]: { expiresAt: fact.data.expiresAt } } }
      case 'ApiTokenRevoked': {
        const { [fact.data.tokenId]: _revoked, ...tokens } = state.tokens
        return { tokens }
      }
      default:
        return fact satisfies never
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'Create': {
        // each token has its own allowance of requests a minute: their number is bounded
        const live = Object.values(state.tokens).filter(
          (t) => t.expiresAt === null || t.expiresAt > command.now,
        )
        if (live.length >= MAX_TOKENS) throw conflict(TOO_MANY_TOKENS)
        return [{ type: 'ApiTokenCreated', data: command.data }]
      }
      case 'Revoke': {
        if (!Object.hasOwn(state.tokens, command.tokenId)) throw notFound(TOKEN_NOT_FOUND)
        const { tokenId, accountId, by } = command
        return [{ type: 'ApiTokenRevoked', data: { tokenId, accountId, by } }]
      }
      default:
        return command satisfies never
    }
  },
}

export function integrationCommands(ledger: Pick<LedgerPort<unknown>, 'transaction'>) {
  return {
    /** a new token of the account's: its fact, and the secret (given back this once) */
    async createToken(accountId: string, body: CreateTokenBody, meta: FactMeta) {
      const tokenId = newId()
      const secret = randomBytes(32).toString('base64url')
      const data = {
        tokenId,
        accountId,
        name: body.name,
        scopes: body.scopes,
        eventIds: body.eventIds ?? null,
        expiresAt: body.expiresAt ? new Date(body.expiresAt).toISOString() : null,
        secretHash: secretHash(secret),
      }
      await handleCommand(ledger, tokensDecider, {
        stream: streams.tokens(accountId),
        command: { type: 'Create', data, now: new Date().toISOString() },
        meta,
        // counted under the account's lock: tokens made at once in two processes both count
        lock: decisionLocks.integrations(accountId),
      })
      return { ...data, token: `${API_TOKEN_PREFIX}${tokenId}_${secret}` }
    },
    revokeToken: (tokenId: string, accountId: string, by: string, meta: FactMeta) =>
      handleCommand(ledger, tokensDecider, {
        stream: streams.tokens(accountId),
        command: { type: 'Revoke', tokenId, accountId, by },
        meta,
        lock: decisionLocks.integrations(accountId),
      }),
  }
}

export type IntegrationCommands = ReturnType<typeof integrationCommands>
