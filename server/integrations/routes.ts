// API tokens' routes (API.md, "Tokens and webhooks"): an organizer or admin makes, lists and
// revokes their own. A token cannot make or revoke tokens (these routes take no scope).
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { MessageReply } from '../../contracts/common.ts'
import {
  CreatedTokenView,
  CreateTokenBody,
  EXPIRES_IN_PAST,
  TOKEN_NOT_FOUND,
  TOKEN_REVOKED,
  TokenParams,
  TokenView,
} from '../../contracts/tokens.ts'
import type { Throttle } from '../accounts/throttle.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import { invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import type { IntegrationCommands } from './commands.ts'
import type { IntegrationQueries } from './queries.ts'
import type { TokenAuth } from './token-auth.ts'

export type IntegrationRoutesOptions = {
  integrations: Pick<IntegrationQueries, 'token' | 'tokensOf'>
  commands: IntegrationCommands
  tokenAuth: Pick<TokenAuth, 'usesOf'>
  catalog: Pick<CatalogQueries, 'byId'>
  throttle: Pick<Throttle, 'perHour'>
}

export async function integrationRoutes(fastify: FastifyInstance, options: IntegrationRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { integrations, commands, tokenAuth, catalog, throttle } = options
  const access = { access: ['organizers', 'admin'] as const }

  app.post(
    '/account/tokens',
    { config: access, schema: { body: CreateTokenBody, response: replies({ 201: CreatedTokenView }) } },
    async (request, reply) => {
      const caller = callerOf(request)
      const body = request.body
      // counted first: each token made is a fact of the account's stream
      await throttle.perHour('integration', caller.id)
      if (body.expiresAt && Date.parse(body.expiresAt) <= Date.now())
        throw invalid(EXPIRES_IN_PAST, [{ field: 'expiresAt', message: EXPIRES_IN_PAST }])
      // an organizer binds a token to their own events only (an admin to any)
      for (const eventId of body.eventIds ?? []) {
        const event = await catalog.byId(eventId)
        if (!event || (caller.role !== 'admin' && event.organizerId !== caller.id)) {
          const message = `Event ${eventId} is not one of yours.`
          throw invalid(message, [{ field: 'eventIds', message }])
        }
      }
      const made = await commands.createToken(caller.id, body, { actor: caller.id, requestId: request.id })
      return reply.code(201).send({
        id: made.tokenId,
        name: made.name,
        scopes: made.scopes,
        eventIds: made.eventIds,
        expiresAt: made.expiresAt,
        token: made.token,
      })
    },
  )

  app.get(
    '/account/tokens',
    { config: access, schema: { response: replies({ 200: v.array(TokenView) }) } },
    async (request) => {
      const tokens = await integrations.tokensOf(callerOf(request).id)
      const uses = await tokenAuth.usesOf(tokens.map((t) => t.id))
      return tokens.map((t) => ({
        id: t.id,
        name: t.name,
        scopes: t.scopes,
        eventIds: t.eventIds,
        expiresAt: t.expiresAt,
        lastUsedAt: uses.get(t.id)?.lastUsedAt ?? null,
        lastAddress: uses.get(t.id)?.lastAddress ?? null,
      }))
    },
  )

  app.delete(
    '/account/tokens/:id',
    { config: access, schema: { params: TokenParams, response: replies({ 200: MessageReply }) } },
    async (request) => {
      const caller = callerOf(request)
      const token = await integrations.token(request.params.id)
      // someone else's token is answered as none
      if (!token || token.accountId !== caller.id || token.revokedAt) throw notFound(TOKEN_NOT_FOUND)
      await commands.revokeToken(token.id, caller.id, caller.id, { actor: caller.id, requestId: request.id })
      return { message: TOKEN_REVOKED }
    },
  )
}
