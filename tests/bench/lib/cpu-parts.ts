// Where a profiled server's time went, by part of the app (issue 39, item 3): each sample of a V8
// CPU profile (node --cpu-prof) is given to exactly one part by its stack, so the parts' shares are
// inclusive (a part's own code and everything it called) and add up to 100%.
//
// The stack is walked from its root to its leaf, and each frame's script (its url) is looked up in
// the rules below: the part of the sample is that of the deepest frame with a rule, where a frame
// of the app's own code (server/) outranks a library's below it, and a library's outranks node's
// own internals (node:) below it. So SQLite's time (better-sqlite3's native calls have no script)
// and node's socket writes count for whichever part of the app ran them: a projection's statements
// for that projection, the decision's reads for the decision, the commit for the append, a Redis
// command for the jobs. A projection's handler ranks above everything it calls (it reads other
// areas' queries: those stay the projection's). Files shared by many parts (server/db/, the areas'
// queries.ts, read-projection.ts) have no rule of their own: their time is their caller's, except
// where a rule says when it applies (the catalog's queries are "the event read" when the checks
// before a hold call them).
//
// Samples with no JavaScript on the stack: "(garbage collector)" and "(program)" (V8 and node
// outside JavaScript) are "other"; "(idle)" is the thread waiting for I/O, and not counted.

export type CpuProfile = {
  nodes: Array<{
    id: number
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
    children?: number[]
  }>
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

/** the parts, in the order the table lists them */
export const PARTS = [
  'HTTP and schema',
  'token and account',
  'the event read',
  'checks before the hold',
  'the decision',
  'the append',
  'ledger tails',
  'projection: accounts',
  'projection: catalog',
  'projection: booking',
  'projection: promo',
  'projection: analytics',
  'projection: checkin',
  'projection: schedule',
  'projection: support',
  'projection: waitlist',
  'the gateway order',
  'throttle',
  'jobs',
  'pushes',
  'logging',
  'other',
] as const
export type Part = (typeof PARTS)[number]

type Rule = {
  /** matched against the frame's url (a file: URL, node:…, or empty for native code) */
  url: RegExp
  /** and, when given, against its function's name */
  fn?: RegExp
  /** null: the frame has no part of its own (its caller's stands) */
  part: Part | ((url: string) => Part) | null
  /** 3: a projection; 2: the app's own code; 1: a library; 0: node's internals */
  rank: number
  /** applies only when the part so far is one of these (else the frame keeps its caller's) */
  under?: ReadonlyArray<Part | null>
}

const projectionOf = (url: string): Part => {
  if (url.includes('/booking/promo-project')) return 'projection: promo'
  const area = /\/server\/([a-z]+)\/project/.exec(url)?.[1] ?? ''
  const part = `projection: ${area}` as Part
  return PARTS.includes(part) ? part : 'other'
}

/** first match wins for a frame; the order matters where patterns overlap */
export const RULES: Rule[] = [
  // the app's own code, by file
  { url: /\/server\/[a-z]+\/(promo-)?project[a-z-]*\.ts/, part: projectionOf, rank: 3 },
  { url: /\/server\/http\/access\.ts/, part: 'token and account', rank: 2 },
  { url: /\/server\/accounts\/throttle\.ts/, part: 'throttle', rank: 2 },
  {
    url: /\/server\/catalog\/queries\.ts/,
    part: 'the event read',
    rank: 2,
    under: ['checks before the hold', 'HTTP and schema', null],
  },
  { url: /\/server\/booking\/checkout\.ts/, part: 'checks before the hold', rank: 2 },
  {
    url: /\/server\/booking\/(commands|decide)\.ts|\/server\/ledger\/decider\.ts/,
    part: 'the decision',
    rank: 2,
  },
  // the ledger's append and commit are its named methods; what it reads (a stream for a decision,
  // the facts after a position for a consumer) and the closures inside are their caller's
  {
    url: /\/server\/ledger\/ledger\.ts/,
    fn: /^(append|transaction|transactionInBatch|commitBatch|project|version|copyIn)$/,
    part: 'the append',
    rank: 2,
  },
  // the consumers that read each new fact after its commit (the live feed, the live sockets, the
  // reactions that enqueue jobs): their reads of the ledger; what each does with a fact is its own
  { url: /\/server\/ledger\/consumer\.ts/, part: 'ledger tails', rank: 2 },
  { url: /\/server\/payments\/|\/server\/booking\/confirm\.ts/, part: 'the gateway order', rank: 2 },
  { url: /\/server\/jobs\/|\/server\/reactions\.ts/, part: 'jobs', rank: 2 },
  { url: /\/server\/live\//, part: 'pushes', rank: 2 },
  { url: /\/server\/log\.ts/, part: 'logging', rank: 2 },
  {
    url: /\/server\/http\/|\/server\/app\.ts|\/server\/[a-z]+\/routes\.ts|\/contracts\//,
    part: 'HTTP and schema',
    rank: 2,
  },
  // libraries
  { url: /node_modules\/fast-jwt\//, part: 'token and account', rank: 1 },
  { url: /node_modules\/(bullmq|ioredis|@ioredis|msgpackr|cron-parser|redis-)/, part: 'jobs', rank: 1 },
  { url: /node_modules\/(socket\.io|engine\.io|ws|@socket\.io)/, part: 'pushes', rank: 1 },
  { url: /node_modules\/(pino|sonic-boom|thread-stream|fast-redact|quick-format)/, part: 'logging', rank: 1 },
  { url: /node_modules\/rate-limiter-flexible\//, part: 'throttle', rank: 1 },
  {
    url: /node_modules\/(fastify|@fastify|find-my-way|light-my-request|avvio|fast-json-stringify|valibot|@valibot|secure-json-parse|fast-querystring|fast-content-type-parse|content-type|toad-cache|process-warning|abstract-logging|rfdc|proxy-addr|forwarded|ipaddr\.js|on-exit-leak-free|ret|safe-regex2|json-schema-ref-resolver|fast-uri|ajv|fast-decode-uri-component|@lukeed)/,
    part: 'HTTP and schema',
    rank: 1,
  },
  // node's own: its HTTP server and sockets (their callers, when any, rank above)
  {
    url: /^node:(_http|internal\/http|internal\/stream|internal\/streams|net|stream|internal\/net)/,
    part: 'HTTP and schema',
    rank: 0,
  },
]

const ruleFor = (url: string, fn: string) =>
  url ? RULES.find((r) => r.url.test(url) && (!r.fn || r.fn.test(fn))) : undefined

export type Attribution = {
  /** samples in the window that were not idle, and the time they cover (ms) */
  samples: number
  busyMs: number
  idleMs: number
  /** each part's share of the busy time (adds up to 1) and its time (ms), in PARTS order;
   * commitMs: of that time, the samples in an outermost transaction's own BEGIN or COMMIT (with
   * synchronous FULL the COMMIT's fsync, time the thread waits off the CPU) */
  parts: Array<{ part: Part; share: number; ms: number; commitMs: number }>
  /** the heaviest leaf functions of each part (where its time was spent), for reading the table */
  topFrames: Record<string, Array<{ frame: string; share: number }>>
}

/**
 * Gives each sample between `fromUs` and `toUs` (the profile's clock: the monotonic clock, µs) to
 * one part; the samples' durations are their time deltas.
 */
export function attribute(profile: CpuProfile, fromUs = -Infinity, toUs = Infinity): Attribution {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  /** node id → its part (null: idle) */
  const partOf = new Map<number, Part | null>()
  /** the samples in better-sqlite3's transaction wrapper itself (its BEGIN, COMMIT run natively
   * there), outside any other transaction */
  const inCommit = new Set<number>()
  const resolve = (id: number): Part | null => {
    const known = partOf.get(id)
    if (known !== undefined) return known
    const path: number[] = []
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) path.unshift(at)
    const leaf = byId.get(id)?.callFrame.functionName ?? ''
    if (
      leaf === 'sqliteTransaction' &&
      path.filter((at) => byId.get(at)?.callFrame.functionName === 'sqliteTransaction').length === 1
    )
      inCommit.add(id)
    let part: Part | null = null
    if (leaf === '(idle)') part = null
    else if (leaf === '(garbage collector)' || leaf === '(program)') part = 'other'
    else {
      let rank = -1
      let found: Part | null = null
      for (const at of path) {
        const frame = byId.get(at)?.callFrame
        const url = frame?.url ?? ''
        const rule = ruleFor(url, frame?.functionName ?? '')
        if (!rule || rule.part === null || rule.rank < rank) continue
        if (rule.under && !rule.under.includes(found)) continue
        found = typeof rule.part === 'function' ? rule.part(url) : rule.part
        rank = rule.rank
      }
      part = found ?? 'other'
    }
    partOf.set(id, part)
    return part
  }
  const ms = new Map<Part, number>()
  const commitMs = new Map<Part, number>()
  const leaves = new Map<Part, Map<string, number>>()
  let busy = 0
  let idle = 0
  let samples = 0
  let t = profile.startTime
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0
    if (t < fromUs || t > toUs) continue
    // a sample stands for the time until the next one
    const duration = (profile.timeDeltas[i + 1] ?? 0) / 1000
    const id = profile.samples[i] as number
    const part = resolve(id)
    if (part === null) {
      idle += duration
      continue
    }
    samples++
    busy += duration
    ms.set(part, (ms.get(part) ?? 0) + duration)
    if (inCommit.has(id)) commitMs.set(part, (commitMs.get(part) ?? 0) + duration)
    const frame = byId.get(id)?.callFrame
    const name = `${frame?.functionName || '(anonymous)'} ${(frame?.url ?? '').replace(/^.*\/(node_modules|server)\//, '$1/')}:${(frame?.lineNumber ?? 0) + 1}`
    const of = leaves.get(part) ?? new Map<string, number>()
    of.set(name, (of.get(name) ?? 0) + duration)
    leaves.set(part, of)
  }
  const share = (x: number) => Math.round((x / busy) * 10000) / 10000
  return {
    samples,
    busyMs: Math.round(busy),
    idleMs: Math.round(idle),
    parts: PARTS.filter((p) => ms.has(p)).map((part) => ({
      part,
      share: share(ms.get(part) ?? 0),
      ms: Math.round(ms.get(part) ?? 0),
      commitMs: Math.round(commitMs.get(part) ?? 0),
    })),
    topFrames: Object.fromEntries(
      [...leaves].map(([part, frames]) => [
        part,
        [...frames]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([frame, t]) => ({ frame, share: share(t) })),
      ]),
    ),
  }
}
