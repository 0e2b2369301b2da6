// Who may call what: every /api route declares config.access, and this hook enforces it before
// the body is even read. Tokens are HS256 JWTs; a token of a deleted account, or one issued
// before the password last changed, no longer works.
import { createSigner, createVerifier } from 'fast-jwt'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Role, SignedInAccount } from '../../contracts/accounts.ts'
import {
  API_TOKEN_PREFIX,
  TOKEN_NOT_HERE,
  TOKEN_OTHER_EVENT,
  TOKEN_SOME_EVENTS,
  type TokenScope,
  tokenLacksScope,
} from '../../contracts/tokens.ts'
import type { Config } from '../config.ts'
import { forbidden, unauthenticated } from '../errors.ts'
import type { TokenAuth } from '../integrations/token-auth.ts'

export type Access = 'anyone' | 'signed-in' | readonly Role[]

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access
    /** error replies of this route also carry status: false (the original /auth/* contract) */
    statusFlag?: boolean
    /**
     * An API token may call this route with this scope (issue 43); a route without one refuses
     * tokens. `tokenEvent`: the path parameter naming the event, for a token bound to some events
     * (a route about no one event refuses such a token).
     */
    tokenScope?: TokenScope
    tokenEvent?: string
  }
  interface FastifyRequest {
    account: SignedInAccount | null
    /** the API token the request came with, when it came with one (issue 43) */
    apiToken: { id: string; scopes: readonly TokenScope[] } | null
  }
}

/** pv: the account's password version (when it last changed, in ms) the token was issued under */
export type TokenClaims = { sub: string; role: Role; pv: number; iat: number; exp: number }

export function createTokens(config: Config) {
  const expiresIn = config.jwt.expiresIn
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    expiresIn.slice(-1) as 's' | 'm' | 'h' | 'd'
  ]
  const sign = createSigner({
    key: config.jwt.secret,
    algorithm: 'HS256',
    expiresIn: Number.parseInt(expiresIn, 10) * unit,
  })
  const verify = createVerifier({
    key: config.jwt.secret,
    algorithms: ['HS256'],
    requiredClaims: ['sub', 'exp', 'pv'],
  })
  return {
    sign: (account: { id: string; role: Role; passwordChangedAt: number }) =>
      sign({ sub: account.id, role: account.role, pv: account.passwordChangedAt }),
    verify: (token: string) => verify(token) as TokenClaims,
  }
}
export type Tokens = ReturnType<typeof createTokens>

export const INVALID_SESSION = 'Your session has expired or is no longer valid. Please log in again.'

/** The account a token speaks for, or null; throws when a token is present but not valid. */
/** how access finds the account a token names (the accounts area's byId) */
export type AccountById = (id: string) => Promise<SignedInAccount | undefined>

export async function accountOfToken(
  tokens: Tokens,
  accountById: AccountById,
  token: string,
): Promise<SignedInAccount> {
  let claims: TokenClaims
  try {
    claims = tokens.verify(token)
  } catch {
    throw unauthenticated(INVALID_SESSION)
  }
  const account = await accountById(claims.sub)
  // A password change retires every token issued before it, however close in time.
  if (!account || claims.pv !== account.passwordChangedAt) throw unauthenticated(INVALID_SESSION)
  return account
}

const bearer = (request: FastifyRequest) => {
  const header = request.headers.authorization
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : null
}

export function registerAccess(
  app: FastifyInstance,
  tokens: Tokens,
  accountById: AccountById,
  apiTokens?: TokenAuth,
) {
  app.decorateRequest('account', null)
  app.decorateRequest('apiToken', null)

  /** a request with an API token: valid, for this route, within its scopes and events */
  const withApiToken = async (request: FastifyRequest, text: string) => {
    const config = request.routeOptions.config
    if (!apiTokens) throw unauthenticated(INVALID_SESSION)
    const { account, token } = await apiTokens.resolve(text, request.ip)
    const scope = config?.tokenScope
    if (!scope) throw forbidden(TOKEN_NOT_HERE)
    if (!token.scopes.includes(scope)) throw forbidden(tokenLacksScope(scope))
    if (token.eventIds) {
      const param = config.tokenEvent
      const eventId = param ? (request.params as Record<string, string | undefined>)[param] : undefined
      if (!eventId) throw forbidden(TOKEN_SOME_EVENTS)
      if (!token.eventIds.includes(eventId)) throw forbidden(TOKEN_OTHER_EVENT)
    }
    request.account = account
    request.apiToken = { id: token.id, scopes: token.scopes }
  }

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && route.config?.access === undefined) {
      throw new Error(`${route.method} ${route.url} declares no access rule`)
    }
  })

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access
    if (access === undefined) return
    const token = bearer(request)
    if (token?.startsWith(API_TOKEN_PREFIX)) {
      // on a public route without a scope a token is no one's: the route answers anyone
      if (access === 'anyone' && !request.routeOptions.config?.tokenScope) return
      await withApiToken(request, token)
    } else if (token) {
      try {
        request.account = await accountOfToken(tokens, accountById, token)
      } catch (error) {
        if (access !== 'anyone') throw error
      }
    }
    if (access === 'anyone') return
    if (!request.account) throw unauthenticated()
    if (access !== 'signed-in' && !access.includes(request.account.role)) throw forbidden()
  })
}

/** The caller's account on a route whose access rule already required one. */
export function callerOf(request: FastifyRequest): SignedInAccount {
  if (!request.account) throw unauthenticated()
  return request.account
}
