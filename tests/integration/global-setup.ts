// Before the integration run: the web app is built once (web/dist: the tests of the served page,
// its CSP and its route's access and fuzzing need it, and fail rather than skip without it).
// After the whole run: the fuzz and access figures it measured go into the README's
// reliability section (between <!-- suite:start --> and <!-- suite:end -->), so the README says
// what the last run showed. A partial run (one file, a filter) leaves the README alone. The same
// suite on PostgreSQL (the integration-pg project) builds the web app when nothing in this run has
// yet, and leaves the figures to the SQLite run (figures.ts records none there).
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { TestProject } from 'vitest/node'
import { clearFigures, readFigures, type SuiteFigures } from '../support/figures.ts'
import { buildWeb } from '../support/web-build.ts'

const README = resolve(import.meta.dirname, '../../README.md')
const START = '<!-- suite:start -->'
const END = '<!-- suite:end -->'
const n = (x: number) => x.toLocaleString('en')

export function suiteSection({ fuzz, access }: Required<SuiteFigures>): string {
  return [
    '',
    `- **Fuzzing** (\`tests/integration/fuzz.test.ts\`, fast-check, seed ${fuzz.seed}): ${n(fuzz.requests)} generated`,
    `  requests to ${fuzz.routes} routes (every route the app serves), answered 5xx ${fuzz.serverErrors} times;`,
    `  ${fuzz.problems} answers broke a rule (a 4xx without a JSON message, a refused request that stored`,
    `  something)${fuzz.unsendable ? `; ${n(fuzz.unsendable)} the HTTP client would not send` : ''}.`,
    `- **Access** (\`tests/integration/access.test.ts\`): ${n(access.checks)} route × role checks over`,
    `  ${access.routes} routes and ${access.roles} roles, each with its expected status.`,
    '',
  ].join('\n')
}

/** set once this process (one vitest run, every project) has built the web app */
const built = globalThis as { ticketingWebBuilt?: boolean }

export default function setup(project?: TestProject) {
  if (!built.ticketingWebBuilt) {
    buildWeb()
    built.ticketingWebBuilt = true
  }
  if (project?.config.env?.TEST_STORE === 'postgres') return
  clearFigures()
  return () => {
    const { fuzz, access } = readFigures()
    clearFigures()
    if (!fuzz || !access) return
    const readme = readFileSync(README, 'utf8')
    const start = readme.indexOf(START)
    const end = readme.indexOf(END)
    if (start < 0 || end < start) return
    const next = `${readme.slice(0, start + START.length)}${suiteSection({ fuzz, access })}${readme.slice(end)}`
    if (next !== readme) writeFileSync(README, next)
  }
}
