// BENCH_SQL_STATS=<file>: loaded into the bench's server (--require), it times every SQLite
// statement the server runs and, when the server exits, writes the 40 that took the most time in
// all (total ms, runs, µs per run, the SQL) to that file. How the flash sale's statements were
// found that SQLite planned again on every run (issue 18).
const { writeFileSync } = require('node:fs')
const { timeStatements } = require('./time-statements.cjs')

const stats = timeStatements((source) =>
  source
    .replace(/\s+/g, ' ')
    .replace(/^select "id"(?: as "id")?, .*? from/i, 'select … from')
    .slice(0, 300),
)

process.on('exit', () => {
  const lines = [...stats.entries()]
    .sort((a, b) => b[1].ns - a[1].ns)
    .slice(0, 40)
    .map(
      ([sql, s]) =>
        `${(s.ns / 1e6).toFixed(0)} ms\t${s.runs}\t${(s.ns / s.runs / 1e3).toFixed(1)} µs\t${sql}`,
    )
  writeFileSync(process.env.BENCH_SQL_STATS, `total ms\truns\tper run\tstatement\n${lines.join('\n')}\n`)
})
