// Wraps better-sqlite3's prepare so that every run of a statement (get, all, run, iterate) is
// counted and timed under a key made from its SQL: what sql-stats.cjs and sql-count.cjs report.
// Answers the map they read: key → { runs, ns }.
const Database = require('better-sqlite3')

function timeStatements(keyOf) {
  const stats = new Map()
  const prepare = Database.prototype.prepare
  Database.prototype.prepare = function (source, ...rest) {
    const statement = prepare.call(this, source, ...rest)
    const key = keyOf(source)
    for (const method of ['get', 'all', 'run', 'iterate']) {
      const original = statement[method]
      statement[method] = function (...args) {
        const started = process.hrtime.bigint()
        try {
          return original.apply(this, args)
        } finally {
          const entry = stats.get(key) ?? { runs: 0, ns: 0 }
          entry.runs++
          entry.ns += Number(process.hrtime.bigint() - started)
          stats.set(key, entry)
        }
      }
    }
    return statement
  }
  return stats
}

module.exports = { timeStatements }
