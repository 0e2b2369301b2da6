// Figures a test file measured: each file writes its own JSON under tests/.figures/ (not
// committed), and the integration project's global teardown writes them together into
// tests/bench/results/latest/suite.md once every file has finished (tests/integration/global-setup.ts).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const figuresDir = resolve(import.meta.dirname, '../.figures')

export type FuzzFigures = {
  seed: number
  routes: number
  requests: number
  unsendable: number
  serverErrors: number
  problems: number
}
export type AccessFigures = { checks: number; routes: number; roles: number }
export type SuiteFigures = { fuzz?: FuzzFigures; access?: AccessFigures }

export function recordFigures<K extends keyof SuiteFigures>(name: K, figures: SuiteFigures[K]) {
  // the figures are the SQLite run's (integration); the PostgreSQL run's would overwrite them
  if (process.env.TEST_STORE === 'postgres') return
  mkdirSync(figuresDir, { recursive: true })
  writeFileSync(join(figuresDir, `${name}.json`), JSON.stringify(figures))
}

export function readFigures(): SuiteFigures {
  let files: string[] = []
  try {
    files = readdirSync(figuresDir).filter((f) => f.endsWith('.json'))
  } catch {}
  return Object.fromEntries(
    files.map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(figuresDir, f), 'utf8'))]),
  )
}

export const clearFigures = () => rmSync(figuresDir, { recursive: true, force: true })
