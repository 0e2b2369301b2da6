// BENCH_MEMORY_LOG=<file>: loaded into the bench's server (--require), it appends one JSON line of
// process.memoryUsage() (MB) to that file every BENCH_MEMORY_EVERY_MS (10 s by default), so the
// soak can show which part of the server's memory moves with its RSS: V8's heap (used, and what it
// holds from the system), memory outside it (Buffers) or neither (native: SQLite, zlib, malloc).
const { appendFileSync } = require('node:fs')
const { isMainThread } = require('node:worker_threads')

const file = process.env.BENCH_MEMORY_LOG
const every = Number(process.env.BENCH_MEMORY_EVERY_MS ?? 10_000)
const started = Date.now()
const mb = (bytes) => Math.round(bytes / 104857.6) / 10
// Only the main thread: a preload runs in every thread (tsx's loader, piscina's pass drawer), and
// each thread has its own heap.
if (file && isMainThread) {
  setInterval(() => {
    const m = process.memoryUsage()
    const line = {
      t: Math.round((Date.now() - started) / 1000),
      rss: mb(m.rss),
      heapTotal: mb(m.heapTotal),
      heapUsed: mb(m.heapUsed),
      external: mb(m.external),
      arrayBuffers: mb(m.arrayBuffers),
    }
    appendFileSync(file, `${JSON.stringify(line)}\n`)
  }, every).unref()
}
