// The provider's webhook, and the local test gateway: its checkout (pay or fail) and a
// Razorpay-shaped REST API (orders, payments, capture, refund) for the razorpay adapter's tests.
import type { FastifyInstance, FastifyReply } from 'fastify'
import * as v from 'valibot'
import { LocalPayBody } from '../../contracts/booking.ts'
import { notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import type { ValibotTypeProvider } from '../http/valibot.ts'
import type { Platform } from '../platform.ts'
import { GatewayError, type LocalGateway } from './local-gateway.ts'
import { type WebhookParts, webhookAcceptor } from './webhook.ts'

export type PaymentRoutesOptions = WebhookParts & { localGateway: Platform['localGateway'] }

export async function paymentRoutes(fastify: FastifyInstance, options: PaymentRoutesOptions) {
  const accept = webhookAcceptor(options)
  options.localGateway?.onWebhook(async (rawBody, signature) => {
    await accept(rawBody, signature)
  })

  // The webhook's signature covers the exact bytes sent, so this route keeps them raw.
  await fastify.register(async (raw) => {
    raw.removeContentTypeParser('application/json')
    raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    )
    raw.post('/payments/webhook', { config: { access: 'anyone' } }, async (request) => {
      const signature = request.headers['x-razorpay-signature']
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const outcome = await accept(body, typeof signature === 'string' ? signature : undefined)
      return { status: 'ok', ...outcome }
    })
  })

  const local = options.localGateway
  if (local) await localGatewayRoutes(fastify.withTypeProvider<ValibotTypeProvider>(), options.booking, local)
}

async function localGatewayRoutes(
  app: FastifyInstance,
  booking: WebhookParts['booking'],
  local: LocalGateway,
) {
  const typed = app.withTypeProvider<ValibotTypeProvider>()

  typed.post(
    '/payments/local/pay',
    { config: { access: 'signed-in' }, schema: { body: LocalPayBody } },
    async (request, reply) => {
      const order = await booking.byProviderOrderId(request.body.orderId)
      if (!order || order.buyerId !== callerOf(request).id) throw notFound('Order not found.')
      const result = await gatewayCall(reply, () => local.pay(order.providerOrderId, request.body.outcome))
      if (result && 'error' in result) return reply.code(402).send({ message: 'Payment failed.', ...result })
      return result
    },
  )

  // Razorpay's REST shapes under /payments/local/v1, with Basic auth like Razorpay's.
  await app.register(
    async (rest) => {
      rest.addHook('onRequest', async (request, reply) => {
        const [scheme, encoded] = (request.headers.authorization ?? '').split(' ')
        const [keyId, keySecret] = Buffer.from(encoded ?? '', 'base64')
          .toString('utf8')
          .split(':')
        if (scheme !== 'Basic' || !local.authorised(keyId ?? '', keySecret ?? '')) {
          return reply.code(401).send({
            message: 'Authentication failed.',
            error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' },
          })
        }
      })
      const anyone = { config: { access: 'anyone' as const } }
      const OrderBody = v.object({
        amount: v.pipe(v.number(), v.integer()),
        currency: v.string(),
        receipt: v.optional(v.string(), ''),
        notes: v.optional(v.record(v.string(), v.string()), {}),
      })
      rest.post('/orders', anyone, async (request, reply) => {
        const parsed = v.safeParse(OrderBody, request.body)
        if (!parsed.success) {
          return reply.code(400).send({
            message: 'Bad request.',
            error: { code: 'BAD_REQUEST_ERROR', description: parsed.issues[0]?.message },
          })
        }
        return gatewayCall(reply, () => local.createOrder(parsed.output))
      })
      rest.get<{ Params: { id: string } }>('/orders/:id/payments', anyone, async (request) => {
        const items = await local.paymentsOfOrder(request.params.id)
        return { entity: 'collection', count: items.length, items }
      })
      rest.get<{ Params: { id: string } }>('/payments/:id', anyone, async (request, reply) => {
        const payment = await local.payment(request.params.id)
        if (!payment) return missing(reply)
        return payment
      })
      rest.post<{ Params: { id: string } }>('/payments/:id/capture', anyone, async (request, reply) =>
        gatewayCall(reply, () => local.capture(request.params.id)),
      )
      rest.get<{ Params: { id: string } }>('/payments/:id/refunds', anyone, async (request) => {
        const items = (await local.refundsOf(request.params.id)).map((r) => ({
          ...r,
          entity: 'refund',
          payment_id: request.params.id,
        }))
        return { entity: 'collection', count: items.length, items }
      })
      rest.post<{ Params: { id: string }; Body: { amount?: number } }>(
        '/payments/:id/refund',
        anyone,
        async (request, reply) => {
          const payment = await local.payment(request.params.id)
          if (!payment) return missing(reply)
          const amount = request.body?.amount ?? payment.amount - payment.amount_refunded
          if (!Number.isSafeInteger(amount) || (amount as number) <= 0) {
            return reply.code(400).send({
              message: 'The amount must be a positive whole number of paise.',
              error: { code: 'BAD_REQUEST_ERROR', description: 'The amount must be a positive integer' },
            })
          }
          return gatewayCall(reply, () => local.refund(request.params.id, amount as number))
        },
      )
    },
    { prefix: '/payments/local/v1' },
  )
}

function missing(reply: FastifyReply) {
  return reply.code(400).send({
    message: 'The id provided does not exist.',
    error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' },
  })
}

/** Runs a gateway call, answering its errors the way Razorpay does. */
async function gatewayCall<T>(reply: FastifyReply, call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call()
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    reply.code(error.statusCode).send({
      message: error.description,
      error: { code: error.code, description: error.description },
    })
    return undefined
  }
}
