// drizzle fills a prepared query's placeholders anew on every run, testing the kind of each
// parameter (is(): an instanceof, then a walk up the prototype chain for the parameters that
// wrap a placeholder). A CPU profile of `ledger:rebuild` put ~12% of its time there, and writes
// are what the hot paths (a hold, a capture, a rebuild's million facts) are made of. This
// resolves each prepared query's parameters once into a list of getters and reuses it for run():
// same SQL, same values, same order, the same error for a missing value. Reads keep drizzle's own
// path (they also map result rows).
// It patches drizzle's internals, so drizzle-orm is pinned to one exact version in package.json and
// tests/integration/fast-run.test.ts fails when the installed one differs or the internals moved.
import { is, Param, Placeholder } from 'drizzle-orm'
import { PreparedQuery } from 'drizzle-orm/better-sqlite3/session'

type Values = Record<string, unknown>
type Fill = (values: Values) => unknown[]

const value = (values: Values, name: string) => {
  if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`)
  return values[name]
}

/** The parameters of a prepared query as getters of the values passed to it. */
export function compileFill(params: readonly unknown[]): Fill {
  const getters = params.map((p): ((values: Values) => unknown) => {
    if (is(p, Placeholder)) {
      const name = p.name
      return (values) => value(values, name)
    }
    if (is(p, Param) && is(p.value, Placeholder)) {
      const name = p.value.name
      const encoder = p.encoder
      return (values) => encoder.mapToDriverValue(value(values, name))
    }
    return () => p
  })
  return (values) => getters.map((get) => get(values))
}

type Prepared = { stmt: { run(...params: unknown[]): unknown }; query: { params: unknown[] } }
const fills = new WeakMap<Prepared, Fill>()

let installed = false
/** Makes every drizzle better-sqlite3 prepared query's run() use its compiled fill. */
export function installFastRun() {
  if (installed) return
  installed = true
  const proto = PreparedQuery.prototype as unknown as { run(this: Prepared, values?: Values): unknown }
  proto.run = function run(this: Prepared, values?: Values) {
    let fill = fills.get(this)
    if (!fill) {
      fill = compileFill(this.query.params)
      fills.set(this, fill)
    }
    return this.stmt.run(...fill(values ?? {}))
  }
}
