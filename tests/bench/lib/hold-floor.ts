// The floor of a hold in this stack (issue 18): the least that any design of POST /ticket/create
// keeping the guarantees of a hold must do, and nothing more. Fastify; the app's own token check
// (HS256 through fast-jwt, createTokens) and body schema (valibot, CreateOrderBody, through the
// app's validator and serializer compilers); one row per hold appended to the seed's ledger table
// (SQLite in WAL at synchronous FULL), the holds of one turn of the event loop committed together
// (group commit, as the ledger does) before they are answered. No account, no event, no seat
// count, no read model, no live push: every real hold does all of that and more, so the app's holds
// per second can never exceed this server's, measured alike. Run on the server's core like hello
// world.
//
// FLOOR_STEPS adds, one by one, what the app's hold reads for its guarantees, through the app's own
// queries on the seed (each step includes the ones before it):
//   account  the token's account, and its password version (a token stops with its password)
//   event    the event, approved, and its ticket type by name (the checks before the hold)
//   seats    the seats left, read inside the batch's write lock, and the hold refused without them
//   ledger   the fact appended through the app's ledger (server/ledger/ledger.ts: its group commit,
//            a savepoint a hold, the stream's version) with every read model projected inline, as
//            TicketsHeld with all its fields (the seats then really go); the seed is then the
//            bench's to throw away
import { join } from 'node:path'
import Fastify from 'fastify'
import * as v from 'valibot'
import { CreateOrderBody } from '../../../contracts/booking.ts'
import { type Account, accountQueries } from '../../../server/accounts/queries.ts'
import { bookingQueries } from '../../../server/booking/queries.ts'
import { catalogQueries, type TicketTypeRow } from '../../../server/catalog/queries.ts'
import { loadConfig, withJwtSecret } from '../../../server/config.ts'
import { openDatabase } from '../../../server/db/connection.ts'
import { answered, answeringNow, sqliteSql } from '../../../server/db/sql.ts'
import { createTokens } from '../../../server/http/access.ts'
import { replies, serializerCompiler, validatorCompiler } from '../../../server/http/valibot.ts'
import { newId } from '../../../server/ids.ts'
import { appLedger } from '../../../server/projections.ts'

const FLOOR_STEPS = ['account', 'event', 'seats', 'ledger']
/** the floor's own streams in the seed's ledger (the bench counts them, then removes them) */
const FLOOR_STREAM_PREFIX = 'floor-'

const dataDir = process.env.DATA_DIR
if (!dataDir) throw new Error('DATA_DIR: the seed whose tokens the load sends')
const steps = new Set((process.env.FLOOR_STEPS ?? '').split(',').filter(Boolean))
for (const step of steps) if (!FLOOR_STEPS.includes(step)) throw new Error(`FLOOR_STEPS: no step ${step}`)
// the seats and the ledger's fact need the ticket type the event step reads
if ((steps.has('seats') || steps.has('ledger')) && !steps.has('event'))
  throw new Error('FLOOR_STEPS: seats and ledger need the event step')
const config = withJwtSecret(loadConfig({ DATA_DIR: dataDir }))
const tokens = createTokens(config)

const connection = openDatabase(join(dataDir, 'ticketing.sqlite'), 'FULL')
const { sqlite } = connection
const ledger = steps.has('ledger') ? appLedger(connection) : null
// SQLite answers at once
const accounts = accountQueries(sqliteSql(sqlite))
const catalog = catalogQueries(sqliteSql(sqlite))
/** a read on SQLite answers at once */
const now = answered
const booking = answeringNow(bookingQueries(sqliteSql(sqlite)))
const insert = sqlite.prepare(
  'INSERT INTO ledger (stream, version, type, data, meta, at) VALUES (?, 1, ?, ?, ?, ?)',
)

type Waiting = {
  row: [string, string, string, string, string]
  /** the decision under the write lock: false refuses the hold (nothing appended) */
  decide?: () => boolean
  done: (held: boolean) => void
}
let batch: Waiting[] = []
const commit = sqlite.transaction((rows: Waiting[]) =>
  rows.map(({ row, decide }) => {
    if (decide && !decide()) return false
    insert.run(...row)
    return true
  }),
)
/** appends a fact unless its decision refuses it; resolves once its turn's batch is committed */
const append = (row: Waiting['row'], decide?: Waiting['decide']) =>
  new Promise<boolean>((done) => {
    if (batch.length === 0)
      setImmediate(() => {
        const waiting = batch
        batch = []
        const held = commit(waiting)
        for (const [i, { done }] of waiting.entries()) done(held[i] ?? false)
      })
    batch.push({ row, decide, done })
  })

const Reply = v.object({ ticketId: v.string(), heldUntil: v.string() })

const app = Fastify({ logger: false })
app.setValidatorCompiler(validatorCompiler)
app.setSerializerCompiler(serializerCompiler)
app.get('/health', async () => ({ ok: true }))
app.post(
  '/api/v1/ticket/create',
  { schema: { body: CreateOrderBody, response: replies({ 200: Reply }) } },
  async (request, reply) => {
    const header = request.headers.authorization
    let claims: ReturnType<typeof tokens.verify>
    try {
      claims = tokens.verify(header?.startsWith('Bearer ') ? header.slice(7) : '')
    } catch {
      return reply.code(401).send({ message: 'unauthenticated' })
    }
    if (steps.has('account')) {
      const account = accounts.byId(claims.sub) as Account | undefined
      if (!account || account.passwordChangedAt !== claims.pv)
        return reply.code(401).send({ message: 'unauthenticated' })
    }
    // the floor's orders are counts: a type and a quantity, always given
    const body = request.body as v.InferOutput<typeof CreateOrderBody> & {
      ticketType: string
      quantity: number
    }
    let ticketType: TicketTypeRow | undefined
    let organizerId = ''
    if (steps.has('event')) {
      const event = now(catalog.byId(body.eventId))
      if (event?.approvalStatus !== 'Approved') return reply.code(404).send({ message: 'Event not found.' })
      const wanted = body.ticketType.toLowerCase()
      ticketType = now(catalog.ticketTypesOf([event.id]))
        .get(event.id)
        ?.find((t) => t.type.toLowerCase() === wanted)
      if (!ticketType) return reply.code(400).send({ message: 'This event has no such ticket type.' })
      organizerId = event.organizerId
    }
    const seats = steps.has('seats') ? ticketType : undefined
    const ticketId = newId()
    const heldUntil = new Date(Date.now() + 600_000).toISOString()
    if (ledger && ticketType) {
      const type = ticketType
      const fact = {
        type: 'TicketsHeld' as const,
        data: {
          orderId: ticketId,
          buyerId: claims.sub,
          eventId: body.eventId,
          organizerId,
          ticketTypeId: type.id,
          ticketType: type.type,
          quantity: body.quantity,
          unitPricePaise: type.pricePaise,
          amountPaise: type.pricePaise * body.quantity,
          provider: 'local',
          providerOrderId: `order_${ticketId}`,
          heldUntil,
        },
      }
      const held = await ledger.transactionInBatch(() => {
        if (booking.available(type) < body.quantity) return false
        ledger.append(`order-${ticketId}`, 0, [fact], { actor: claims.sub, requestId: request.id })
        return true
      })
      if (!held) return reply.code(409).send({ message: 'Not enough tickets available.' })
      return { ticketId, heldUntil }
    }
    const data = {
      orderId: ticketId,
      buyerId: claims.sub,
      eventId: body.eventId,
      quantity: body.quantity,
      heldUntil,
    }
    const held = await append(
      [
        `${FLOOR_STREAM_PREFIX}${ticketId}`,
        'TicketsHeld',
        JSON.stringify(data),
        JSON.stringify({ actor: claims.sub, requestId: request.id }),
        new Date().toISOString(),
      ],
      seats ? () => booking.available(seats) >= body.quantity : undefined,
    )
    if (!held) return reply.code(409).send({ message: 'Not enough tickets available.' })
    return { ticketId, heldUntil }
  },
)
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })
console.log('listening')
