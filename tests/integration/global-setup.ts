// Before the integration run: the web app is built once (web/dist: the tests of the served page,
// its CSP and its route's access and fuzzing need it, and fail rather than skip without it).
// After the whole run: the fuzz and access figures it measured are written to
// tests/bench/results/latest/suite.md (ignored by git: a test run changes no committed file) and
// printed. A partial run (one file, a filter) writes nothing. The same suite on PostgreSQL (the
// integration-pg project) builds the web app when nothing in this run has yet, and leaves the
// figures to the SQLite run (figures.ts records none there).
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, relative } from 'node:path'
import type { TestProject } from 'vitest/node'
import { type Machine, machine } from '../bench/lib/machine.ts'
import { clearFigures, readFigures, type SuiteFigures } from '../support/figures.ts'
import { repoRoot, runFiles } from '../support/results-files.ts'
import { buildWeb } from '../support/web-build.ts'

const n = (x: number) => x.toLocaleString('en')

export function suiteSection({ fuzz, access }: Required<SuiteFigures>, on: Machine): string {
  return [
    '# Bad input and access',
    '',
    `Measured by the integration suite on SQLite: commit ${on.commit}, ${on.cpu}, ${on.cores} cores, Node ${on.node}, ${on.date}.`,
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
    const file = runFiles().suite.markdown
    const section = suiteSection({ fuzz, access }, machine())
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, section)
    console.log(`\n${section}\n(written to ${relative(repoRoot, file)})`)
  }
}
