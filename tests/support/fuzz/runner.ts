// Sends a route's generated requests and judges each answer: the property the fuzz test asserts.
// Whatever arrives, the app never answers 5xx, every 4xx says why in a JSON {message} without the
// server's insides, and a refused request stores nothing: no fact carries its request id, and when
// nothing else ran meanwhile the ledger's head, every read model's row count and the uploads folder
// are as they were. The first request that breaks it fails the property, and fast-check shrinks it
// to a smallest request that still does, printed with the seed and path that repeat the run.
import { readdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import type { TestApp } from '../app.ts'
import { dbRow, tableNames } from '../db.ts'
import type { FuzzFigures } from '../figures.ts'
import type { Req } from './generators.ts'
import type { RouteSpec } from './routes.ts'
import type { World } from './world.ts'

export type FuzzOptions = {
  seed: number
  /** generated requests per route (times the route's scale), after its examples */
  runs: number
  /** fast-check's path of a counterexample it printed: with the seed (and one route), replays it */
  path?: string
}

type Snapshot = { head: number; rows: string; uploads: string; incoming: string }

const listing = (dir: string) => {
  try {
    return readdirSync(dir).sort().join(',')
  } catch {
    return '(none)'
  }
}

const clip = (value: unknown, max = 160) => {
  const s =
    typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('latin1') : String(value)
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…(${s.length})` : s)
}

export const describeRequest = (req: Req) =>
  `${req.method} ${clip(req.url, 120)} as ${req.auth}; headers ${clip(JSON.stringify(req.headers))}${
    req.payload === undefined ? '' : `; body ${clip(req.payload)}`
  }`

/** The request as fast-check prints a counterexample: clipped, not 100 kB of body. */
const printable = (req: Req): Req =>
  Object.defineProperty({ ...req }, fc.toStringMethod, { value: () => describeRequest(req) })

const repository = resolve(import.meta.dirname, '../../..')
/** A stack frame, a dependency, the server's own folder or a raw error name in a reply. */
const leaks = (body: string) =>
  /\bat .+:\d+:\d+|node_modules|\b(?:SqliteError|TypeError|ReferenceError|RangeError)\b/.test(body) ||
  body.includes(repository)

const polluted = () =>
  Object.keys(Object.prototype).length > 0 || ({} as Record<string, unknown>).polluted !== undefined

export async function fuzzRunner(t: TestApp, world: World, { seed, runs, path }: FuzzOptions) {
  const { app } = t
  const figures: Omit<FuzzFigures, 'serverErrors'> = {
    seed,
    routes: 0,
    requests: 0,
    unsendable: 0,
    problems: 0,
  }
  /** How often each status was answered, by route. */
  const answers = new Map<string, Map<number, number>>()

  // sent_mails records mails going out (asynchronously, for earlier requests): not a read model. Nor
  // are, on PostgreSQL, the local gateway's own records (the provider's side, which SQLite keeps in a
  // file of its own) and the media table (MEDIA_STORE=database; the suite keeps media on disk).
  const notReadModels = [
    'checkpoints',
    'sent_mails',
    '__drizzle_migrations',
    'gateway_orders',
    'gateway_payments',
    'gateway_refunds',
    'media',
  ]
  const readModels = (await tableNames(app)).filter(
    (name) => !notReadModels.includes(name) && !name.startsWith('sqlite_'),
  )
  // the ledger's head and the rows in one statement, so one snapshot of the store: read apart, a
  // worker's fact (a refund) committed between them counted in the rows but not in the head
  const countRows = `SELECT (SELECT coalesce(max(position), 0) FROM ledger) AS head, ${readModels.map((name, i) => `(SELECT count(*) FROM "${name}") AS c${i}`).join(', ')}`
  const incomingDir = join(t.config.uploadsDir, '.incoming')
  const snapshot = async (): Promise<Snapshot> => {
    const { head, ...rows } = (await dbRow<Record<string, number>>(app, countRows)) ?? {}
    return {
      head: Number(head),
      rows: Object.values(rows).join(','),
      uploads: listing(t.config.uploadsDir),
      incoming: listing(incomingDir),
    }
  }

  /** What is wrong with an answer, if anything. */
  async function judge(
    res: LightMyRequestResponse,
    before: Snapshot,
    requestId: string,
  ): Promise<string | null> {
    const status = res.statusCode
    if (polluted()) return 'Object.prototype was polluted'
    if (status >= 500) return `${status} ${clip(res.body)}`
    if (status < 400) return null
    let message: unknown
    try {
      message = (res.json() as { message?: unknown }).message
    } catch {}
    if (
      !/^application\/json/.test(String(res.headers['content-type'] ?? '')) ||
      typeof message !== 'string' ||
      !message.trim()
    ) {
      return `${status} without a JSON {message}: content-type ${clip(res.headers['content-type'] ?? 'none')}, body ${clip(res.body)}`
    }
    if (leaks(res.body)) return `${status} leaks the server's insides: ${clip(res.body)}`
    const after = await snapshot()
    const own = (await app.platform.ledger.readFrom(before.head, 10_000)).filter(
      (f) => f.meta.requestId === requestId,
    )
    if (own.length) return `${status}, yet stored ${own.map((f) => f.type).join(', ')}`
    if (after.head === before.head && after.rows !== before.rows) {
      return `${status}, yet read models changed: ${before.rows} → ${after.rows}`
    }
    if (after.uploads !== before.uploads) return `${status}, yet the uploads folder changed`
    if (after.incoming !== before.incoming)
      return `${status}, yet uploads/.incoming went from [${before.incoming}] to [${after.incoming}]`
    return null
  }

  /** Sends one request with the credentials its label names; what broke a rule, or null. */
  async function send(route: string, req: Req): Promise<string | null> {
    const requestId = `fuzz-${++figures.requests}`
    const authorization = Object.hasOwn(world.auth, req.auth) ? world.auth[req.auth] : undefined
    const before = await snapshot()
    let res: LightMyRequestResponse
    try {
      res = await app.inject({
        method: req.method,
        url: req.url,
        headers: { ...req.headers, ...(authorization ? { authorization } : {}), 'x-request-id': requestId },
        ...(req.payload === undefined ? {} : { payload: req.payload }),
        remoteAddress: req.remoteAddress,
      })
    } catch {
      // The client refused to build it (an invalid header byte): nothing reached the server.
      figures.unsendable++
      return null
    }
    const seen = answers.get(route) ?? new Map<number, number>()
    answers.set(route, seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1))
    const problem = await judge(res, before, requestId)
    if (problem) figures.problems++
    return problem
  }

  /**
   * The property for one route: its examples, then its generated requests, each answered within
   * the rules. Fails with the smallest request fast-check shrinks the first failure to.
   */
  async function check(spec: RouteSpec): Promise<void> {
    figures.routes++
    const property = fc.asyncProperty(spec.request(world).map(printable), async (req) => {
      const problem = await send(spec.route, req)
      if (problem) throw new Error(problem)
    })
    try {
      await fc.assert(property, {
        seed,
        ...(path ? { path } : {}),
        numRuns: runs * (spec.scale ?? 1),
        examples: (spec.examples?.(world) ?? []).map((req) => [printable(req)]),
      })
    } catch (error) {
      const failure = error as Error
      const answer = failure.cause instanceof Error ? `\nwhat was wrong: ${failure.cause.message}` : ''
      throw new Error(
        `${spec.route}: a request broke the rules (FUZZ_SEED=${seed} repeats this run; with FUZZ_PATH set to ` +
          `the path below and only this route, it replays the counterexample)\n${failure.message}${answer}`,
        { cause: error },
      )
    }
    // A staging file can appear after its refusal was answered (a late open): look again once the
    // route is done, and take what is left away so the next route is judged on its own.
    await new Promise((settle) => setTimeout(settle, 50))
    const left = listing(incomingDir)
    if (left && left !== '(none)') {
      for (const name of left.split(',')) rmSync(join(incomingDir, name), { force: true })
      throw new Error(`${spec.route}: uploads/.incoming still holds ${left} after this route's requests`)
    }
  }

  const serverErrors = () =>
    [...answers.values()]
      .flatMap((seen) => [...seen])
      .reduce((sum, [status, count]) => sum + (status >= 500 ? count : 0), 0)

  return { check, figures, answers, serverErrors }
}
