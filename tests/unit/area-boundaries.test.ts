// The areas' boundaries (DESIGN.md): a module never imports another area's tables or projection; it
// reads another area through that area's queries, and only the catalogue decides about an event's
// stream. Within an area, modules import each other in one direction (no cycle). Read from the
// source's import statements, type-only imports included.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SERVER = resolve(import.meta.dirname, '../../server')

/** the folders of server/ that are business areas (db/, http/, ledger/… are shared parts) */
const AREAS = ['accounts', 'analytics', 'booking', 'catalog', 'checkin', 'schedule', 'support', 'waitlist']

/** a read model's own modules: nobody outside its area imports them */
const PRIVATE = /^(pg-)?(tables|project|promo-project|media-tables)\.ts$/

const filesOf = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return filesOf(path)
    return name.endsWith('.ts') ? [path] : []
  })

/** the relative modules a file imports or re-exports, as absolute paths */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  const found: string[] = []
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/g)) {
    found.push(resolve(dirname(file), match[1] as string))
  }
  return found
}

const areaOf = (file: string) => {
  const [first, second] = relative(SERVER, file).split('/')
  return second !== undefined && AREAS.includes(first as string) ? first : null
}

describe("the areas' boundaries", () => {
  const files = filesOf(SERVER)

  it("imports no other area's tables or projection", () => {
    const crossings = files.flatMap((file) => {
      const from = areaOf(file)
      if (from === null) return []
      return importsOf(file)
        .filter((target) => {
          const to = areaOf(target)
          return to !== null && to !== from && PRIVATE.test(target.split('/').at(-1) as string)
        })
        .map((target) => `${relative(SERVER, file)} -> ${relative(SERVER, target)}`)
    })
    expect(crossings).toEqual([])
  })

  it("decides about an event's stream only in the catalogue", () => {
    const deciders = files
      .filter((file) => areaOf(file) !== 'catalog' && /\beventDecider\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SERVER, file))
    expect(deciders).toEqual([])
  })

  it.each(AREAS)('%s: its modules import each other without a cycle', (area) => {
    const dir = join(SERVER, area)
    const own = new Set(filesOf(dir))
    const edges = new Map([...own].map((file) => [file, importsOf(file).filter((t) => own.has(t))]))
    // depth-first search; a module met again while still on the path closes a cycle
    const state = new Map<string, 'open' | 'done'>()
    const cycles: string[] = []
    const visit = (file: string, path: string[]) => {
      state.set(file, 'open')
      for (const next of edges.get(file) ?? []) {
        if (state.get(next) === 'open') {
          const from = path.indexOf(next)
          cycles.push([...path.slice(from), file, next].map((f) => relative(dir, f)).join(' -> '))
        } else if (!state.has(next)) visit(next, [...path, file])
      }
      state.set(file, 'done')
    }
    for (const file of own) if (!state.has(file)) visit(file, [])
    expect(cycles).toEqual([])
  })
})
