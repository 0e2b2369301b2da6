// Bad input, generated (fast-check, fixed seed): malformed bodies, params, query strings, headers and
// multipart parts for every route the app serves, sent with the tokens of every role so validation
// and the rules behind it are reached. Whatever arrives, the app never answers 5xx, every 4xx says
// why in a JSON {message}, and a refused request stores nothing (tests/support/fuzz/runner.ts judges
// each answer; a failure shrinks to a smallest request). The generators are in
// tests/support/fuzz/generators.ts, each route's requests in routes.ts, their targets in world.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servedRoutes, startApp, type TestApp } from '../support/app.ts'
import { recordFigures } from '../support/figures.ts'
import { routeSpecs } from '../support/fuzz/routes.ts'
import { fuzzRunner } from '../support/fuzz/runner.ts'
import { makeWorld, type World } from '../support/fuzz/world.ts'
import { requireWebBuild } from '../support/web-build.ts'

/** The seed every run starts from (FUZZ_SEED to try another); printed with every failure. */
const SEED = Number(process.env.FUZZ_SEED ?? 80_808)
/** Requests per route (FUZZ_RUNS to go further). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 120)
/** The path of a counterexample a failure printed (FUZZ_PATH, with its seed and -t its route). */
const PATH = process.env.FUZZ_PATH

let t: TestApp
let w: World
let runner: Awaited<ReturnType<typeof fuzzRunner>>

beforeAll(async () => {
  t = await startApp({ PAYMENT_WAIT_SECONDS: '1' })
  w = await makeWorld(t)
  runner = await fuzzRunner(t, w, { seed: SEED, runs: RUNS, ...(PATH ? { path: PATH } : {}) })
})

afterAll(async () => {
  await t?.close()
  if (!runner) return
  if (process.env.FUZZ_VERBOSE) {
    for (const [route, seen] of runner.answers) {
      const statuses = [...seen].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`)
      console.info(`${route}: ${statuses.join(' ')}`)
    }
  }
  const { figures } = runner
  recordFigures('fuzz', { ...figures, serverErrors: runner.serverErrors() })
  console.info(
    `fuzz: ${figures.requests} requests to ${figures.routes} routes (seed ${SEED}, ${RUNS} runs a route` +
      `${figures.unsendable ? `, ${figures.unsendable} the HTTP client would not send` : ''})`,
  )
})

describe('every route the app serves', () => {
  it('has a generator of bad input here, and every route here is served', () => {
    requireWebBuild(t.config.webDist) // (GET /* is served only with the web app built)
    const served = servedRoutes(t.app)
    const known = new Set(routeSpecs.map((s) => s.route))

    expect(served.filter((route) => !known.has(route))).toEqual([])
    expect([...known].filter((route) => !served.includes(route))).toEqual([])
  })
})

describe.each(routeSpecs.map((s) => [s.route, s] as const))('%s', (route, spec) => {
  it('never answers 5xx; every 4xx has a JSON {message} and stores nothing', async () => {
    if (route === 'GET /*') requireWebBuild(t.config.webDist)
    await runner.check(spec)
  })
})

describe('POST /api/v1/payments/local/v1/payments/:id/refund', () => {
  it('refuses an amount that is not a positive whole number of paise, and records no refund', async () => {
    const key = w.auth['the gateway key'] ?? ''
    const payment = w.gatewayPayments[0]
    const refunds = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/payments/local/v1/payments/${payment}/refunds`,
          headers: { authorization: key },
        })
      ).json().count as number
    const before = await refunds()
    const answers: string[] = []

    for (const amount of [-500, 0, 1.5, 'abc']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/payments/local/v1/payments/${payment}/refund`,
        headers: { authorization: key },
        payload: { amount },
      })
      answers.push(`${JSON.stringify(amount)}: ${res.statusCode}`)
    }

    expect(answers).toEqual(['-500: 400', '0: 400', '1.5: 400', '"abc": 400'])
    expect(await refunds()).toBe(before)
  })
})
