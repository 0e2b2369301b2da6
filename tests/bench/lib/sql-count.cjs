// BENCH_SQL_COUNT=<file>: loaded into the bench's server (--require), it counts and times every
// SQLite statement the main thread runs, by its SQL (time-statements.cjs), and on each SIGUSR2
// appends one JSON line to that file: every statement's runs and nanoseconds so far. A bench signals at the start and at the end of its window and takes
// the difference: the statements a window ran, whatever ran before it (the seed, the warm-up).
const { appendFileSync } = require('node:fs')
const { isMainThread } = require('node:worker_threads')
const Database = require('better-sqlite3')
const { timeStatements } = require('./time-statements.cjs')

const file = process.env.BENCH_SQL_COUNT
if (file && isMainThread) {
  /** SQL → { runs, ns } */
  const stats = timeStatements((source) => source.replace(/\s+/g, ' ').trim())
  // A transaction's own statements (BEGIN and COMMIT, or SAVEPOINT and RELEASE when nested) are
  // prepared inside better-sqlite3, not through prepare: each call of a transaction function is
  // counted as two statements under one key. An outermost one is timed without what ran inside it
  // (its BEGIN and its COMMIT, with the COMMIT's fsync); a nested one only counted.
  const transaction = Database.prototype.transaction
  Database.prototype.transaction = function (fn) {
    const db = this
    let depth = 0
    let bodyNs = 0
    /** this function's bodies running (nested calls of it inside its outermost one) */
    let level = 0
    const made = transaction.call(this, function (...args) {
      const started = process.hrtime.bigint()
      level++
      try {
        return fn.apply(this, args)
      } finally {
        level--
        if (depth === 1 && level === 0) bodyNs += Number(process.hrtime.bigint() - started)
      }
    })
    const counted = (variant) =>
      function (...args) {
        const outer = !db.inTransaction
        const key = outer ? '(BEGIN, COMMIT)' : '(SAVEPOINT, RELEASE)'
        const entry = stats.get(key) ?? { runs: 0, ns: 0, statements: 2 }
        stats.set(key, entry)
        entry.runs++
        const started = process.hrtime.bigint()
        const body = bodyNs
        depth += outer ? 1 : 0
        try {
          return variant.apply(this, args)
        } finally {
          if (outer) {
            depth--
            entry.ns += Number(process.hrtime.bigint() - started) - (bodyNs - body)
          }
        }
      }
    const wrapped = counted(made)
    for (const name of ['deferred', 'immediate', 'exclusive']) wrapped[name] = counted(made[name])
    return wrapped
  }
  process.on('SIGUSR2', () => {
    appendFileSync(file, `${JSON.stringify(Object.fromEntries(stats))}\n`)
  })
}
