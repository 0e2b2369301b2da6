// The floor of a hold in this stack (issue 18): the least that any design of POST /ticket/create
// keeping the guarantees of a hold must do, and nothing more. Fastify; the app's own token check
// (HS256 through fast-jwt, createTokens) and body schema (valibot, CreateOrderBody, through the
// app's validator and serializer compilers); one row per hold appended to a SQLite ledger in WAL at
// synchronous FULL, the holds of one turn of the event loop committed together (group commit, as
// the ledger does) before they are answered. No account lookup, no event, no seat count, no read
// model, no live push: every real hold does all of that and more, so the app's holds per second
// can never exceed this server's, measured alike. Run on the server's core like hello world.
import { join } from 'node:path'
import Database from 'better-sqlite3'
import Fastify from 'fastify'
import * as v from 'valibot'
import { CreateOrderBody } from '../../../contracts/booking.ts'
import { loadConfig, withJwtSecret } from '../../../server/config.ts'
import { createTokens } from '../../../server/http/access.ts'
import { replies, serializerCompiler, validatorCompiler } from '../../../server/http/valibot.ts'
import { newId } from '../../../server/ids.ts'

const dataDir = process.env.DATA_DIR
if (!dataDir) throw new Error('DATA_DIR: the seed whose tokens the load sends')
const tokens = createTokens(withJwtSecret(loadConfig({ DATA_DIR: dataDir })))

const sqlite = new Database(join(dataDir, 'floor.sqlite'))
sqlite.pragma('journal_mode = WAL')
sqlite.pragma('synchronous = FULL')
sqlite.exec(
  `CREATE TABLE IF NOT EXISTS ledger (position INTEGER PRIMARY KEY, stream TEXT NOT NULL,
   version INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, meta TEXT NOT NULL, at TEXT NOT NULL,
   UNIQUE (stream, version))`,
)
const insert = sqlite.prepare(
  'INSERT INTO ledger (stream, version, type, data, meta, at) VALUES (?, 1, ?, ?, ?, ?)',
)

type Waiting = { row: [string, string, string, string, string]; done: () => void }
let batch: Waiting[] = []
const commit = sqlite.transaction((rows: Waiting[]) => {
  for (const { row } of rows) insert.run(...row)
})
/** appends a fact and resolves once its turn's batch is committed */
const append = (row: Waiting['row']) =>
  new Promise<void>((done) => {
    if (batch.length === 0)
      setImmediate(() => {
        const rows = batch
        batch = []
        commit(rows)
        for (const waiting of rows) waiting.done()
      })
    batch.push({ row, done })
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
    let buyer: string
    try {
      buyer = tokens.verify(header?.startsWith('Bearer ') ? header.slice(7) : '').sub
    } catch {
      return reply.code(401).send({ message: 'unauthenticated' })
    }
    const body = request.body as v.InferOutput<typeof CreateOrderBody>
    const ticketId = newId()
    const heldUntil = new Date(Date.now() + 600_000).toISOString()
    const data = {
      orderId: ticketId,
      buyerId: buyer,
      eventId: body.eventId,
      quantity: body.quantity,
      heldUntil,
    }
    await append([
      `order-${ticketId}`,
      'TicketsHeld',
      JSON.stringify(data),
      JSON.stringify({ actor: buyer, requestId: request.id }),
      new Date().toISOString(),
    ])
    return { ticketId, heldUntil }
  },
)
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })
console.log('listening')
