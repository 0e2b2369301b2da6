// BENCH_MEMORY_LOG=<file>: loaded into the bench's server (--require), it appends one JSON line of
// process.memoryUsage() (MB) to that file every BENCH_MEMORY_EVERY_MS (10 s by default), so the
// soak can show which part of the server's memory moves with its RSS: V8's heap (used, and what it
// holds from the system), memory outside it (Buffers) or neither (native: SQLite, zlib, malloc).
const { appendFileSync } = require('node:fs')
const { isMainThread, threadId } = require('node:worker_threads')

const file = process.env.BENCH_MEMORY_LOG
const every = Number(process.env.BENCH_MEMORY_EVERY_MS ?? 10_000)
const started = Date.now()
const mb = (bytes) => Math.round(bytes / 104857.6) / 10
// A preload runs in every thread (tsx's loader, piscina's pass drawer), and each thread has its own
// V8 heap: the main thread's lines are as above, another thread's carry its id (`thread`) and its
// own heap (the RSS is the process's, whichever thread reads it).
if (file) {
  setInterval(() => {
    const m = process.memoryUsage()
    const line = {
      ...(isMainThread ? {} : { thread: threadId }),
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

// BENCH_HEAP_PROFILE=<file>: V8's sampling heap profiler over the server's whole run, counting
// objects collected since (what a run allocates, garbage included, by the code that allocated
// it), written to that file when the server is told to stop. How the soak's heap was looked into.
const heapFile = process.env.BENCH_HEAP_PROFILE
if (heapFile && isMainThread) {
  const { Session } = require('node:inspector')
  const { writeFileSync } = require('node:fs')
  const session = new Session()
  session.connect()
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 64 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  })
  process.prependListener('SIGTERM', () => {
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (!error) writeFileSync(heapFile, JSON.stringify(result.profile))
    })
  })
}
