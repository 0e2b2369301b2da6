// Webhooks' routes (API.md, "Tokens and webhooks"): an organizer's endpoints, their deliveries, and
// a delivery sent again. An endpoint's signing secret is shown once, when it is added.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { MessageReply } from '../../contracts/common.ts'
import {
  CreatedWebhookView,
  CreateWebhookBody,
  DELIVERY_AGAIN,
  DELIVERY_NOT_FOUND,
  DeliveryParams,
  DeliveryView,
  HTTPS_ONLY,
  NO_CREDENTIALS_IN_URL,
  NO_PORT_ZERO,
  privateDestination,
  WEBHOOK_NOT_FOUND,
  WEBHOOK_REMOVED,
  WebhookParams,
  WebhookView,
} from '../../contracts/webhooks.ts'
import type { Throttle } from '../accounts/throttle.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import type { Config } from '../config.ts'
import { invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { newId } from '../ids.ts'
import type { WebhookQueries } from './queries.ts'
import type { WebhookEndpointRow } from './tables.ts'
import { type EndpointCommands, isPrivateAddress, type WebhookCommands, webhookSecret } from './webhooks.ts'

export type WebhookRoutesOptions = {
  config: Pick<Config, 'webhooks' | 'jwt'>
  webhooks: Pick<WebhookQueries, 'endpoint' | 'endpointsOf' | 'delivery' | 'deliveriesOf'>
  endpoints: EndpointCommands
  deliveries: Pick<WebhookCommands, 'retry'>
  catalog: Pick<CatalogQueries, 'byId'>
  throttle: Pick<Throttle, 'perHour'>
}

const view = (e: WebhookEndpointRow) => ({
  id: e.id,
  url: e.url,
  events: e.kinds,
  eventIds: e.eventIds,
  disabledAt: e.disabledAt,
})

export async function webhookRoutes(fastify: FastifyInstance, options: WebhookRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { config, webhooks, endpoints, deliveries, catalog, throttle } = options
  const access = { access: ['organizers'] as const }

  /** the caller's own endpoint, or 404 (another's is answered as none) */
  const ownEndpoint = async (id: string, callerId: string) => {
    const endpoint = await webhooks.endpoint(id)
    if (!endpoint || endpoint.organizerId !== callerId || endpoint.removedAt)
      throw notFound(WEBHOOK_NOT_FOUND)
    return endpoint
  }

  app.post(
    '/organizer/webhooks',
    { config: access, schema: { body: CreateWebhookBody, response: replies({ 201: CreatedWebhookView }) } },
    async (request, reply) => {
      const caller = callerOf(request)
      const body = request.body
      // counted first: each endpoint added is a fact of the organizer's stream
      await throttle.perHour('integration', caller.id)
      const url = new URL(body.url)
      const allowPrivate = config.webhooks.allowPrivate
      if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
        throw invalid(HTTPS_ONLY, [{ field: 'url', message: HTTPS_ONLY }])
      if (url.username || url.password)
        throw invalid(NO_CREDENTIALS_IN_URL, [{ field: 'url', message: NO_CREDENTIALS_IN_URL }])
      if (url.port === '0') throw invalid(NO_PORT_ZERO, [{ field: 'url', message: NO_PORT_ZERO }])
      // a name's trailing dot (the root) names the same host: "localhost." is localhost
      const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '')
      // a name is checked again where it resolves, at each delivery
      if (!allowPrivate && (privateName(host) || (isIpLike(host) && isPrivateAddress(host)))) {
        const message = privateDestination(host)
        throw invalid(message, [{ field: 'url', message }])
      }
      for (const eventId of body.eventIds ?? []) {
        const event = await catalog.byId(eventId)
        if (!event || event.organizerId !== caller.id) {
          const message = `Event ${eventId} is not one of yours.`
          throw invalid(message, [{ field: 'eventIds', message }])
        }
      }
      const endpointId = newId()
      const data = {
        endpointId,
        organizerId: caller.id,
        url: url.toString(),
        kinds: body.events,
        eventIds: body.eventIds ?? null,
      }
      await endpoints.add(data, { actor: caller.id, requestId: request.id })
      return reply.code(201).send({
        id: endpointId,
        url: data.url,
        events: data.kinds,
        eventIds: data.eventIds,
        secret: webhookSecret(config.jwt.secret, endpointId),
      })
    },
  )

  app.get(
    '/organizer/webhooks',
    { config: access, schema: { response: replies({ 200: v.array(WebhookView) }) } },
    async (request) => (await webhooks.endpointsOf(callerOf(request).id)).map(view),
  )

  app.delete(
    '/organizer/webhooks/:id',
    { config: access, schema: { params: WebhookParams, response: replies({ 200: MessageReply }) } },
    async (request) => {
      const caller = callerOf(request)
      const endpoint = await ownEndpoint(request.params.id, caller.id)
      await endpoints.remove(endpoint, caller.id, { actor: caller.id, requestId: request.id })
      return { message: WEBHOOK_REMOVED }
    },
  )

  app.get(
    '/organizer/webhooks/:id/deliveries',
    { config: access, schema: { params: WebhookParams, response: replies({ 200: v.array(DeliveryView) }) } },
    async (request) => {
      const endpoint = await ownEndpoint(request.params.id, callerOf(request).id)
      return (await webhooks.deliveriesOf(endpoint.id)).map((d) => ({
        id: d.id,
        type: d.kind,
        position: d.position,
        status: d.status,
        attempts: d.attempts,
        lastCode: d.lastCode,
        lastAt: d.lastAt,
      }))
    },
  )

  app.post(
    '/organizer/webhooks/:id/deliveries/:deliveryId/retry',
    { config: access, schema: { params: DeliveryParams, response: replies({ 202: MessageReply }) } },
    async (request, reply) => {
      const caller = callerOf(request)
      const endpoint = await ownEndpoint(request.params.id, caller.id)
      const delivery = await webhooks.delivery(request.params.deliveryId)
      if (!delivery || delivery.endpointId !== endpoint.id) throw notFound(DELIVERY_NOT_FOUND)
      // each is another request to the endpoint (and facts of its own)
      await throttle.perHour('redelivery', caller.id)
      await deliveries.retry(delivery, caller.id)
      return reply.code(202).send({ message: DELIVERY_AGAIN })
    },
  )
}

/** names that never reach the internet: localhost, and the names kept for private networks */
const privateName = (host: string) =>
  ['localhost', 'local', 'internal', 'home.arpa'].some((name) => host === name || host.endsWith(`.${name}`))
const isIpLike = (host: string) => /^[\d.]+$/.test(host) || host.includes(':')
