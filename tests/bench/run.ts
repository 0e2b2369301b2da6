// npm run bench [-- --only append,reads] [--quick] [--render] [--record]: runs every benchmark (or some), side by
// side with the same machine's ceiling in the same run, and writes tests/bench/results/latest/latest.json and
// RESULTS.md (ignored by git); with --record, the committed tests/bench/results/latest.json and RESULTS.md
// instead. Each bench's figures keep the commit, CPU and date of the run that measured them. Benches: append, flash-sale, watched-sale (the flash sale with 200
// pages of its event open), purchase, floor (the least a hold and a purchase's jobs cost in this
// stack, beside the app, issue 18), balancer (the flash sale through nginx, deploy/nginx.conf),
// fanout, reads, rebuild, web, stores, sale-stores (the flash
// sale and the full purchase on SQLite and PostgreSQL with 1 and 2 app processes), dashboards,
// checkin (the door: 10,000 offline scans synced from 4 devices, and one scan at 200 scans/s), pg-cluster
// (holds with 1, 2 and 4 app processes on PostgreSQL behind a delaying proxy, issue 39), hold-profile
// (where the server's CPU goes in a hold that replaces the buyer's last, by part, issue 39), seating
// (a 50,000-seat map and reserved-seat holds against count holds, issue 40), seating-web (that map
// in Chromium on a phone profile while seats change, and its pushes to 200 open maps, issue 40),
// queue (the waiting room, issue 41: ~20,000 buyers in line on one process, and a sale arriving at
// once with and without the room), invoices (issue 42: 1,000 purchases at once across 20 organizers
// on both stores, every invoice checked gapless per organizer, and the server's CPU per purchase
// with invoices against without), webhooks (issue 43: 10,000 paid orders with 3 endpoints each, every
// delivery checked once and in order per endpoint, a receiver down for 5 minutes, and the sale's
// purchases/s with webhooks against without), pages (issues 40 and 42: the pages a hold and a
// purchase write to SQLite, by table and index, with and without an invoice and by kind of hold).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { runFiles } from '../support/results-files.ts'
import { benchAppend } from './append.ts'
import { benchBalancedSale } from './balancer.ts'
import { benchCheckin, type CheckinResult } from './checkin.ts'
import { benchDashboards, type DashboardsResult } from './dashboards.ts'
import { benchFanout } from './fanout.ts'
import {
  benchFlashSale,
  benchHoldFloor,
  latencyCurve,
  type WatchedSaleResult,
  watchedSale,
} from './flash-sale.ts'
import { benchHoldProfile, type HoldProfileResult } from './hold-profile.ts'
import { benchInvoices, type InvoicesResult } from './invoices.ts'
import { type Machine, machine } from './lib/machine.ts'
import { root } from './lib/processes.ts'
import { type Interval, median, round, type Spread } from './lib/stats.ts'
import { benchPages, type PagesResult, type StepPages } from './pages.ts'
import { benchPgCluster, type PgClusterResult, pgClusterVerdicts } from './pg-cluster.ts'
import { benchPurchase, benchPurchaseJobsFloor } from './purchase.ts'
import {
  benchQueueLine,
  benchQueueSale,
  type QueueLineResult,
  type QueueSaleResult,
  type QueueSaleRun,
} from './queue.ts'
import { benchReads } from './reads.ts'
import { benchRebuild } from './rebuild.ts'
import { benchSaleStores, type SaleStoresResult } from './sale-stores.ts'
import { benchSeating, type SeatingResult } from './seating.ts'
import { benchSeatingWeb, type SeatingWebResult } from './seating-web.ts'
import { benchSoak, drawSoak, type SoakResult } from './soak.ts'
import { benchStores, type StoreFigures } from './stores.ts'
import { benchWeb } from './web.ts'
import { benchWebhooks, type WebhooksResult } from './webhooks.ts'

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean' },
    render: { type: 'boolean' },
    record: { type: 'boolean' },
  },
})
// --render: no bench runs; RESULTS.md is written again from latest.json.
// --record: the committed results are read and written; without it, the ones under latest/.
const only = values.render ? new Set<string>() : values.only ? new Set(values.only.split(',')) : null
const wanted = (name: string) => !only || only.has(name)
const quick = values.quick === true

/** What profiling led to, with the figures measured around each change (kept by hand: history). */
const profiledChanges = [
  {
    change: 'Group commit of holds and captures',
    commit: 'ea3fed8',
    on: '2026-11-26, AMD EPYC',
    before:
      'flash sale FULL 983 req/s (ratio 0.209), NORMAL 1,224 req/s; full purchase FULL 249, NORMAL 317 paid orders/s',
    after:
      'flash sale FULL 1,626 req/s (0.342), NORMAL 1,629 req/s; full purchase FULL 341, NORMAL 341 paid orders/s (one round)',
    why:
      'A CPU profile of the flash sale showed the hold transaction (one commit, and with FULL one fsync, per request) as the largest single cost; ' +
      'holds and captures arriving in the same turn of the event loop now share one commit, each in its own savepoint, answered once it is durable.',
  },
  {
    change: 'Warm-up before the measured flash sale',
    commit: 'ea3fed8',
    on: '2026-11-26, AMD EPYC',
    before: 'p99 298 ms (FULL, cold server)',
    after: 'p99 116 ms',
    why: 'The first requests paid for JIT compilation and lazily loaded modules; 1,000 holds on a second event now warm the server first.',
  },
  {
    change: "drizzle's placeholder fill compiled once per prepared query (server/db/fast-run.ts)",
    commit: 'ee298ff',
    on: '2026-11-26, AMD EPYC',
    before: 'rebuild of 1,000,001 facts 66,229 facts/s (ratio 0.274)',
    after: '67,942 facts/s (0.285)',
    why:
      "A CPU profile of the rebuild put ~12% of its time in drizzle's per-call placeholder fill (is() walking prototype chains); " +
      'what is left is SQLite executing the statements (~50%), JSON.parse of the facts (~15%) and the index builds (~10%).',
  },
  {
    change: 'Measuring what a commit writes',
    commit: '0c13a88',
    on: '2026-11-26, AMD EPYC',
    before: 'append NORMAL ratio 0.16, unexplained',
    after: 'unchanged, explained',
    why:
      'A hold costs 44 µs inside an open transaction and 106 µs as its own commit: the commit writes every page the fact and its read models touched ' +
      '(WAL pages per commit are now in the table).',
  },
  {
    change:
      "Orders' status written into the SQL, not bound (server/db/constant.ts); the hold's seats read once; a pushed order read once",
    commit: 'ccc8771',
    on: '2026-11-27, Intel Xeon',
    before:
      'hold probe (60,000 buyers, 100 connections, 10 s after 3 s of warm-up, FULL): 2,645 holds/s, 0.37 ms of the server core per hold; flash sale 1,844 holds/s, 0.059 of hello world (the day before, a slower machine)',
    after:
      'probe 3,375–3,518 holds/s, 0.27–0.28 ms per hold; flash sale 3,273 holds/s (3,188–3,402), 0.080 of hello world (40,936 req/s); latency curve p99 44 ms at 100 connections, 90% of the peak',
    why:
      "BENCH_SQL_STATS (every statement the server ran, timed) put the two lookups of the buyer's held orders first: 28 µs each, for an indexed lookup that finds nothing. " +
      "SQLite plans a statement again on every run when a bound value decides whether a partial index may serve it, and orders' indexes are partial on status: " +
      "`status = 'held'` written into the SQL takes 1.4 µs instead of 13. The hold's transaction read the seats twice, and the pushes read the order twice. " +
      "The local gateway (a stand-in for the provider, whose work is not on the app's core in production) commits the orders of one event-loop turn together.",
  },
  {
    change: 'Listings and event pages made per event, per change of that event; listings gzipped from groups',
    commit: '9193e37, 177f8f7',
    on: '2026-11-27, Intel Xeon',
    before:
      'soak 109 operations/s for 10 min (a 156/s peak), the server core from 73% to 97% busy at that same rate, p99 last/middle third 1.39',
    after:
      'soak 159 operations/s (a 227/s peak), the core ~75% throughout, p99 57 ms then 41 ms (0.71) (both soaks with the flaw fixed in 6c75ae8: no sockets in their last ~2.5 minutes); a 1,000-event listing with 40 attendees each joined from its groups in 1.8 ms against 18.6 ms to gzip it whole',
    why:
      "The soak's profile put the event reads of the listing and the event page at ~17%, growing: every event object lists its attendees, and the whole listing was made and gzipped again for every new fact. " +
      "Each event's object is now made when that event changes (the facts since the last look say which), and the gzipped listing is joined from groups compressed apart, of which only the changed ones are compressed again.",
  },
  {
    change: "Analytics' and check-in's projections read an order's six columns, not its row (orderSummaries)",
    commit: '751bf72',
    on: '2026-11-27, Intel Xeon',
    before: 'rebuild of 200,000 facts 42,723 and 41,903 facts/s (one round each)',
    after:
      "47,295 and 46,134 facts/s; 1,000,001 facts 44,672 facts/s against a raw copy's 303,979 rows/s (0.147)",
    why: "A CPU profile of `ledger:rebuild` (200,000 facts): reading and mapping the order's 23 columns in those two projections was ~15% of it; the analytics projection is ~28% of the replay, the check-in projection's passes ~17%.",
  },
  {
    change:
      "The listing per request: the ledger's head read once, helmet's headers taken from it once, the log line made only when info is logged, Accept-Encoding's answer kept per header",
    commit: 'c9f3c52, 3d17eb7',
    on: '2026-11-27, Intel Xeon',
    before:
      'listing probe (1,000 events gzipped, wrk, 100 connections, 10 s after 3 s of warm-up, three rounds): 18,376–18,731 req/s; reads bench 15,488 req/s, 0.207 of wrk’s hello world (the machine of the day before)',
    after:
      'probe 20,437–21,386 req/s; reads bench 19,793 req/s (19,303–19,883, three rounds), 0.305 of hello world’s 64,999 (63,562–65,637), and in a second run 19,494 against 65,654, 0.297',
    why:
      "A CPU profile of the listing under wrk: sending its bytes (writev) ~23%; helmet's chain of middlewares and Node's checks of the raw headers it set ~8%, though its headers never depend on the request; the ledger's head read twice ~7%; " +
      'and a log line with its message built for every request though LOG_LEVEL=warn drops it.',
  },
  {
    change:
      "The gzipped listing's groups compressed at zlib's default level, each with the text before it as its dictionary",
    commit: '75188ec',
    on: '2026-11-27, Intel Xeon',
    before: 'the 1,000-event listing 71,043 bytes gzipped (46,476 gzipped whole); probe 20,885–21,442 req/s',
    after: '47,834 bytes; probe 19,575–20,567 req/s',
    why:
      "Measuring the bytes sent: each group started from an empty window at zlib's fastest level, 53% more than the text gzipped whole. " +
      'A third fewer bytes for every browser; under wrk the rate fell ~5%, which the profile (the same share for every part) does not explain.',
  },
  {
    change:
      "Rebuild: analytics' figures, then booking's seat counts, folded in memory during the replay, each row written once",
    commit: '1b43612, 941df8a',
    on: '2026-11-27, Intel Xeon',
    before:
      '1,000,001 facts 34,430 facts/s against a raw copy of 243,396 rows/s (0.141, three rounds, the same machine and day); 300,000 facts 0.148',
    after:
      "1,000,001 facts 44,128 facts/s against 249,300 (0.177); 300,000 facts 0.202. With booking's counts too: 43,500 against 244,407 (0.178), 300,000 facts 0.202–0.209: no change that the rounds' spread shows",
    why:
      'BENCH_SQL_STATS on the rebuild: a paid order (three facts) ran about twenty statements, ~63 µs; ten of them moved the analytics figures (per ticket type, event, hour, person and organizer), ~23 µs. ' +
      'During a replay nobody reads those tables, so they are added up in memory and written once at the end (ledger.replaying; at most 200,000 rows are held, then written and read back as needed).',
  },
  {
    change:
      "Rebuild: booking's replay holds the orders in memory and lends them to the projections after it (analytics, the door's passes, promo codes)",
    commit: 'e994e24',
    on: '2026-11-27, AMD EPYC',
    before:
      '1,000,001 facts 38,435 facts/s against a raw copy of 206,463 rows/s (0.186, three rounds, the code before, this machine and day); 300,000 facts 37,940 facts/s',
    after:
      '1,000,001 facts 44,290 facts/s against 198,911 (0.223, three rounds); 300,000 facts 49,473 facts/s',
    why:
      'BENCH_SQL_STATS on the rebuild of 300,000 facts after the change before: an order was an insert and two updates (1.06 s of ~7.9 s), and read by id five more times by booking, analytics, the door and promo codes (0.67 s). ' +
      'The order is now a row held in memory during the replay, changed in place and written once; the projections after booking read it from there (what one replay shares, ledger.Replaying).',
  },
  {
    change:
      'The gzipped listing of a new ledger head made without the whole JSON text (the CRC-32 put together from the groups’, crc32Combine), the plain text made only when asked for',
    commit: '405d3e2',
    on: '2026-11-27, AMD EPYC',
    before:
      'probe, one event changed per head: 1,000 events with 40 attendees each 15.8 ms per head, 50 events with 300 attendees each 7.5 ms',
    after: '1.9 ms and 2.7 ms',
    why: "A sampling heap profile of the soak (BENCH_HEAP_PROFILE, garbage counted) put about a third of every byte the server allocated in the catalog's listing made again for each new fact: the whole text joined, converted for its CRC-32, and each changed group's dictionary made from the text before it.",
  },
  {
    change:
      "SQLite's page cache 16 MB by default (SQLITE_CACHE_MB; it was 64), the pass drawing thread's V8 heap bounded (4 MB young, 48 MB old)",
    commit: 'c7e8dd4',
    on: '2026-11-27, AMD EPYC',
    before:
      "soak (sockets gone in its last minutes, see the soak bench fix 6c75ae8): the memory outside V8's heaps and Buffers 207 → 293 MB over 10 minutes; the drawing thread 42 MB of heap held",
    after:
      'one soak with 16 MB: that memory 163–178 MB from 90 s on while the file grew 53 → 99 MB; the thread 19–32 MB. Purchases, six pairs: 202–274 paid orders/s (median 248) against 239–300 (median 285), a spread as wide as the gap; all SQL statements 2,082 against 1,953 ms of a ~12 s run',
    why: "The soak's memory log, which now logs each thread's own heap and the database's size: the memory outside V8's heap was SQLite's page cache filling as the file grew, up to its 64 MB, and piscina's thread sized its heap to its garbage.",
  },
  {
    change:
      "An event object of 8 kB or more gzipped as a group of its own; an event's attendees read from the index alone (orders_issued_by_event on event, id and owner)",
    commit: 'b11d0ee',
    on: '2026-11-27, AMD EPYC',
    before:
      "soak of the code before on a faster machine (2026-11-27, AMD EPYC): 115.9 operations/s (70% of 165.5), the server's core ~80% → ~93% busy, p99 110.5 ms middle third, 178.9 ms last (1.62); RSS +14.2%. The code before on this entry's machine, profiled (BENCH_SERVER_PROF, which slows it): 97.2 operations/s (70% of 138.8), p99 72.7 ms middle third, 97.1 ms last (1.34), RSS +4.9%; the listing's compression 4.0% → 6.8% of the core from the first minute to the last, the attendee reads of changed events 1.5% → 3.4%; a probe of 400 attendees of one event among 60,000 orders: 908 µs",
    after:
      'soak: 102.8 operations/s (70% of 146.9), the core ~70% busy from start to end, p99 64.2 ms middle third, 56 ms last (0.87); RSS 381.9 → at most 410.1 MB (+7.4%); 0 errors, 0 drops. A second run: 115.3 operations/s (70% of 164.7), the core 80–95% busy, p99 80.8 then 89.5 ms (1.11), RSS 338.1 → at most 393.1 MB (+16.3%, three windows; the median window 339.2 MB in the second minute, 353.8 MB in the last), 0 errors, 0 drops. The probe: 207 µs. Rebuild of 300,000 facts (three rounds each, this machine): 61,020 facts/s with the code before, 60,954 after (0.242 and 0.240 of a raw copy): the wider index costs nothing the rounds show',
    why: "Every event object lists its attendees, so during a sale events grow to 15 kB and more. gzip-groups.ts grouped them with their neighbours up to 64 kB, and each ticket sold compressed that whole group again; the attendees were read through an index without the owner, one table row per attendee. Both costs grew with the tickets sold: what made the server's CPU per operation climb through the soak.",
  },
  {
    change:
      "Every reply's security headers given as one object of a fixed shape (a constructor made from helmet's names), and CORS headers only for requests that carry an Origin",
    commit: 'c881ee9',
    on: '2026-11-27, Intel Xeon',
    before:
      "reads bench, the code before (a3020e9): the gzipped 1,000-event listing 19,053 req/s (17,099–20,345) under wrk against wrk's hello world 68,477 (56,283–70,246), 0.278; a page of 50 13,795, one event 15,702, a 304 27,064 req/s; probe (listing, wrk, three rounds of 10 s) ~23,000 req/s, 28 µs of user and 15 µs of system CPU per request",
    after:
      "the listing 25,418 req/s (24,937–26,133) against wrk's hello world 83,983 (80,924–85,264), 0.303; a page of 50 18,544, one event 18,298, a 304 31,958 req/s (hello world's own spread moved between the two runs, so the ratios move less than the rates); probe ~27,500 req/s, 22 µs of user CPU per request",
    why:
      "Probes of the listing and of /health/live under wrk, with the server's user and system CPU per request read from /proc: the app's smallest route cost 28 µs a request where Fastify's hello world costs 12. Leaving out helmet's headers took 8.6 µs off the listing, CORS 5.7 µs. " +
      "Fastify keeps a reply's headers in an object that starts empty; thirteen keys added to it one by one made V8 look up a new shape at each store and slowed Node's pass over them (Reply.header alone 2.35 µs a reply in the profile). A constructor assigning the same names in the same order gives every reply's headers one shape. @fastify/cors set allow-credentials and expose-headers on every reply, cross-origin or not; its origin option is now a function that turns CORS off for a request without an Origin (Vary: Origin stays).",
  },
  {
    change:
      'A big item of the gzipped listing (an event object of 8 kB or more) compressed in slices of 8 kB; when it changes, the slices before the first that differs are kept',
    commit: 'a82504d',
    on: '2026-11-27, Intel Xeon',
    before:
      "soak of c881ee9's code: 138 operations/s (70% of 197.1), the server's core ~74% busy in the second minute and ~85% in the last, p99 46.8 ms middle third, 68.1 ms last (1.46x); a profiled run of the same code (125.3 operations/s): the listing's compression (gzipJsonArray) 6.4% → 12.5% of the core from the first minute to the last; unit test, a 32 kB event gaining one attendee: 35,835 bytes compressed again",
    after:
      'soak: 143.1 operations/s (70% of 204.5), the core 80–84% busy from the second minute to the last, p99 68.3 ms middle third, 73.1 ms last (1.07x), 0 errors, 0 drops; unit test: under 16.5 kB compressed per sale',
    why:
      "The soak's CPU profile cut in minutes (BENCH_SERVER_PROF): the one cost that kept growing was the listing's compression, zlib's processChunkSync 4.6% → 10.6% of the core. An event of 8 kB or more was already a group of its own, but every ticket sold compressed its whole object again, and each sale makes it bigger. " +
      "Its attendees are listed in the order they bought, so a sale changes the object's end (the new attendee, the seats left); compressed in slices, each with the text before it as its dictionary, only the last slice or two are compressed again.",
  },
  {
    change:
      "glibc's mmap threshold fixed at 128 kB (MALLOC_MMAP_THRESHOLD_=131072) for npm start, npm run workers, the Dockerfile and the benches' server",
    commit: '62861d4',
    on: '2026-11-27, Intel Xeon',
    before:
      "soak of b96703d's code (`node --import tsx tests/bench/soak.ts 600 2000`, not written above): 132.8 operations/s (70% of 189.7); the memory outside V8's heaps, Buffers and threads 130 → 170 MB; the median window's RSS 305.5 MB in the second minute, 346 MB in the last; RSS 304.4 → at most 374.8 MB (+23%); p99 1.02x",
    after:
      "the same, with the setting: 138.4 operations/s (70% of 197.7); that memory ~140 MB throughout; the median window's RSS 314.2 and 314.4 MB; RSS 306.8 → at most 352.1 MB (+14.8%, one window at 80 s; from 200 s on at most 320.9); p99 1.10x; 0 errors, 0 drops",
    why:
      "The soak's memory log: what grew was neither V8's heaps nor the Buffers but the rest of the process, while Buffers of ~0.5 MB (the gzipped listing of each new ledger head) were made and freed many times a second. " +
      'glibc maps a block of 128 kB or more, but raises that threshold to the size of each mapped block freed, so later blocks came from its heap, whose freed space it kept. A fixed threshold maps them all and gives each back when it is freed.',
  },
  {
    change:
      "Rebuild: the replay reads the ledger's rows as arrays; the rows a replay holds counted as they come, not summed over its tables at every new key; booking's orders (23 columns) and the door's passes written with positional parameters, without drizzle's fill of named values; a new row put in its map once; the replay's closures anonymous",
    commit: '70a7adb, a5deb85',
    on: '2026-11-28, AMD EPYC',
    before:
      'rebuild of 1,000,001 facts (`node --import tsx tests/bench/rebuild.ts 1000000 3`, the code before in a worktree): 67,004 and 64,839 facts/s against a raw copy of 273,817 and 265,873 rows/s (0.245, 0.244)',
    after:
      '78,880 facts/s against 272,972 (0.289) after the first; 81,121 against 267,973 (0.303) and 81,438 against 265,079 (0.307) after the second',
    why:
      "A CPU profile of the rebuild of 1,000,001 facts (`--cpu-prof`), cut to rebuildReadModels: the writes of the rows held (replay-rows.ts) 15%, the index builds 15%, reading the ledger 21%, the door's passes 15%, the commit 10%, and 6% in the held rows' own bookkeeping, which summed the rows of every table at each new key. " +
      "A probe of 200,000 rows of 23 columns: 1,110-1,170 ms bound by name, 914-922 ms by position. tsx keeps functions' names, so a named closure made per call (`const made = () => …`) was named again at every call (its __name helper 5% of the replay).",
  },
  {
    change:
      'Analytics: every move of the counts made in one shape (move()), so adding them up reads each field from one shape',
    commit: '1c51998',
    on: '2026-11-28, AMD EPYC',
    before:
      "rebuild of 1,000,001 facts, three rounds, a5deb85's code in a worktree: 81,438 facts/s against a raw copy of 265,079 rows/s (0.307)",
    after:
      '87,598 and 88,437 facts/s against 268,800 and 261,088 (0.326, 0.339); `npm run bench -- --only rebuild` 87,629 against 269,795 (0.325)',
    why: "The profile after the change before put analytics' TicketsIssued at 7% of the replay and add(), which moves a row's counts, at 2%, for a few additions each. The moves had five shapes ({ pending: 1 }, { pending: -1, failed: 1 }, the issue's, the cancel's, the transfer's), so add() read each field through a megamorphic load. One shape for every move made the whole rebuild 8% faster.",
  },
  {
    change:
      "The gzipped listing: when the text before a big item changes, only that item's first slice is compressed again (the only one whose dictionary is that text)",
    commit: 'bc4fc3b',
    on: '2026-11-28, AMD EPYC',
    before:
      "soak of 03e100e's code, profiled (BENCH_SERVER_PROF, `node --import tsx tests/bench/soak.ts 600 2000`): 117.2 operations/s; the listing's compression (gzipJsonArray) 6.8% → 11.7% of the core from the first two minutes to the last two, zlib 5.0% → 10.1%; RSS +13.2%, p99 1.06x. The soak before it (cac0bbf's code, written then): 136.6 operations/s (70% of 195.1), the core ~0.76–0.80 busy at first and 0.84–0.90 at the end, RSS +11%, p99 1.24x; unit test: the event before a 36 kB event changing compressed 36,017 bytes again",
    after:
      "soak: 127.1 operations/s (70% of 181.5), the core ~0.71 busy in the first two minutes and ~0.77 in the last two, RSS 336.1 → at most 366.9 MB (+9.2%), p99 57.4 → 67.5 ms (1.18x), 0 errors, 0 drops; unit test: that event's group and one slice, under 11,699 bytes. But a profiled run after it (119.5 operations/s, RSS +11.6%, p99 1.02x) still had the listing's compression growing, 7.0% → 11.5% of the core: this removed one cause, not all, and the soak above met its targets partly by luck",
    why: "The profiled soak cut in two-minute buckets: the listing's compression still grew after the slicing of big events (a82504d). A big event is compressed in slices, of which only the first has the text before the event (the group before it) as its dictionary, but when that text changed (a sale of the event listed just before) every slice was compressed again, and events grow with their attendees.",
  },
  {
    change:
      'The gzipped listing in small groups (8–16 kB) with short dictionaries (the last 2 kB before a part); an item of 4 kB or more sliced at commas chosen by the text before them (content-defined), so an attendee gone from the front or the middle changes its slice and the next',
    commit: '11103d7',
    on: '2026-11-28, AMD EPYC',
    before:
      "`node --import tsx tests/bench/gzip-changes.ts` (the soak's pattern of changes, no server; 25c5a5c's code in a worktree): 60,404 bytes compressed again per listing (1.24 ms) in the first sixth of the run, 157,317 bytes (5.85 ms) in the last; the listing 105,388 bytes gzipped (105,220 whole); unit test: a cancel in a 32 kB event (its first attendee gone) compressed 35,781 bytes again; soak, on a much slower machine than the entries before: 54 operations/s (70% of 77.1), RSS 348.6 → at most 390.2 MB (+12%), p99 0.99x, the server's CPU per request ~9.2 ms at first and ~9.7 ms at the end",
    after:
      "32,864 bytes (0.68 ms) in the first sixth, 12,813 bytes (1.01 ms) in the last; the listing 125,203 bytes gzipped (more blocks, each with its own Huffman tables); the 1,000-event listing 42.7 → 43.7 kB (41.4 kB whole); unit test: each of three cancels in that event under 10.7 kB. (The soak above is this change's: its RSS missed because of V8's heap, see the next change.)",
    why: "The soak's events stay under 8 kB (4–6 kB after ten minutes: 50 events, about 180 attendees each), so the slicing of the sessions before never applied to them: they sat in groups of 16–64 kB, and each change compressed its group and the next, whose 32 kB dictionary ended with the changed event's version (its last field). The cost grew with the attendees. And a cancel takes the oldest ticket, whose owner is the first attendee listed, so a fixed-offset slicing would have compressed a big event again whole at each one.",
  },
  {
    change:
      "V8's old generation allowed to grow 50% past what its last full collection kept (--heap-growing-percent, set by the server and the workers at start; server/heap.ts)",
    commit: 'c078bce, 44de51b',
    on: '2026-11-28, AMD EPYC',
    before:
      "soak (11103d7's code): 54 operations/s (70% of 77.1); V8's heap held 148.8 MB at 60 s and up to 191.8 MB after, live heap 75.5 → 80.7 MB; RSS 348.6 → at most 390.2 MB (+12%: missed), median window 342.6 → 357.5 MB; p99 91.8 → 91.2 ms (0.99x); flash sale, one round: 934 holds/s",
    after:
      'at 25% (c078bce): 59.6 operations/s (70% of 85.1); heap held 123.3 → at most 124.3 MB; RSS +4%; p99 182.7 → 188.7 ms (1.03x), the core ~0.73 → ~0.85 busy; flash sale 918 holds/s. At 50% (44de51b), `npm run bench -- --only soak`: 52.2 operations/s (70% of 74.5); heap held 136.5 → at most 136 MB, live heap 78.5 → 78.2 MB; RSS 279.3 → at most 286.2 MB (+3%: met), median window 279.3 → 284.1 MB; p99 103.5 → 128.6 ms (1.24x: met, at its edge); 0 errors, 0 drops; a first run at 50% (BENCH_SERVER_FLAGS): 51.8 operations/s, RSS +3.2%, p99 101 → 81.9 ms (0.81x)',
    why: "The soak's memory log: what rose and fell by 30–40 MB was V8's heap, which grew to 150–190 MB between full collections with ~80 MB live (V8 chose a growing factor near 1.9 from its own speed), and the Buffers freed with the same collections. The RSS target compares one window with the highest after it, so where those collections fell decided it. 25% held the heap lowest but its soak's p99 was twice the others' (at a rate 10-15% higher: not separated); 50% keeps RSS as flat with the p99 of the run without the setting.",
  },
  {
    change:
      "The mail's pass images: the QR code's modules from qrcode in one byte-mode segment, the PNG written directly at one bit a pixel (server/mail/pass-image-worker.mjs)",
    commit: '121b972',
    on: '2026-11-28, Intel Xeon',
    before:
      "a pass code of 192 characters (QR version 10) drawn in 9.1 ms by qrcode's toBuffer (a probe, three rounds of 500 codes); ~1.2 kB an image; full purchase, three rounds interleaved with the code after in a worktree (`node --import tsx tests/bench/purchase.ts FULL 1`): 282, 199, 238 paid orders/s; the drawing thread ~40% busy over a profiled purchase run",
    after:
      '1.4–2.0 ms an image, ~0.4 kB; 318, 297, 278 paid orders/s; the drawing thread ~9% busy; tests/unit/pass-qr-read.test.ts reads 200 codes back with ZXing, as before',
    why: "A CPU profile of the full purchase, the server's threads apart: the pass drawing thread, which shares the server's one core, was busy 40% of the run, drawing one image for each ticket issued. qrcode's PNG renderer builds an RGBA image of every pixel and pngjs packs it back to grey pixel by pixel (with its garbage collections, ~60% of the drawing); its split of the code into modes (a shortest path over the text) was about half of the rest. A QR code is black and white on a grid: each module row is one line of bits, repeated by PNG's Up filter as lines of zeros, and a pass code is ASCII, which one byte-mode segment encodes in the same version.",
  },
  {
    change:
      "A ticket type's seats on sale to its event's room: the first fact after a quiet interval at once, the facts within LIVE_FIGURES_EVERY_MS of a send gathered into one count as of the latest (server/live/socket.ts)",
    commit: '6e70d90',
    on: '2026-11-28, AMD EPYC',
    before:
      "the flash sale watched by 200 pages of its event against the same sale unwatched (`npm run bench -- --only watched-sale`, the code before in a worktree, run between the runs after): 0.144, 0.178, 0.209; 2,655–4,049 µs of the server's CPU per hold against 530–554; 535,200–779,400 pushes in 10 s",
    after:
      "0.834, 0.855, 0.88, 0.951; the server's CPU per hold 1.00–1.14× the unwatched sale's (e.g. 584 against 512 µs); ~9,600 pushes in 10 s; the quick cluster run's quiet pushes 56–64 → 99–115 ms at the p50 (max 178 ms, limit 1 s)",
    why: "Profiles and the watched-sale bench (2026-11-28, Intel Xeon): every hold, sale and release pushed the ticket type's new count to every socket on the event's page, 400,000 messages a second for a sale of 2,000 holds a second watched by 200 pages, on the server's one core. The count is the live quantity, which a page owes as of the latest fact: the client keeps the newest position, and the cluster check asks for a count at or after each acknowledged hold's position on every other process.",
  },
  {
    change:
      "nginx in front of the app keeps 512 idle connections to it, not 32 (deploy/nginx.conf's upstream keepalive)",
    commit: '5f73c81',
    on: '2026-11-28, AMD EPYC',
    before:
      '`npm run bench -- --only balancer` (the flash sale under wrk, 100 connections, three rounds; nginx on the load core): through nginx keeping 32, 3,942 holds/s, p99 332 ms (308.5–348.7); straight at the app 4,295 holds/s, p99 241 ms (90.1–246.9)',
    after: 'through nginx keeping 512, 4,103 holds/s (0.955 of the app straight), p99 63.5 ms (59.6–65.1)',
    why: "wrk's p99 on the holds (220–330 ms) was 4–5× autocannon's, with the same rate and p50. Timed inside the server the same requests took p99 32–39 ms; a packet capture put the wait before the app: the connections opened last waited up to 729 ms for their first answer. Node 20's libuv accepts one connection per turn of the event loop (strace: one accept4 per wake-up, never an EAGAIN), and a busy app's turn is a batch of holds. nginx keeping fewer idle connections than its requests in flight opened and closed connections to the app through the whole sale.",
  },
  {
    change:
      "nginx's live upstream (app_live) keeps idle connections to the app (keepalive 1024): long-polling requests reuse them",
    commit: '2651bb0',
    on: '2026-11-28, AMD EPYC',
    before:
      "`npm run bench -- --only balancer`: 300 pages' Socket.IO clients (long-polling, then the upgrade) opened at once through nginx while the flash sale runs through it (wrk, 100 connections): 76, 96 and 97 of 300 connected in three rounds, the rest failing (xhr post error, 194–214 a round)",
    after: '300 of 300 connected in each round, p50 2.3–2.7 s, p90 ~4.1 s',
    why: "Found with the one accept per turn of the event loop (the change above): app_live had no keepalive, so every long-polling request, a page's first ones included, reached the app on a new connection, accepted one per turn while the sale filled every turn.",
  },
  {
    change:
      "PostgreSQL's append: the stream's version read by the insert itself (nothing inserted when it is not the one expected), and BEGIN sent with the append lock in one simple query (server/ledger/pg-ledger.ts)",
    commit: '790bede',
    on: '2026-11-28, AMD EPYC',
    before:
      'stores bench (a hold with every projection), two runs alternating with the code after in a worktree: 843–956 holds/s one after another, 1,621–1,707 with 64 in flight, 1,728–1,920 from two pools; seven round trips for a lone hold',
    after:
      '1,063–1,069, 1,749 and 1,867–1,952; `npm run bench -- --only stores` 1,048, 1,515 and 1,898; five round trips',
    why: "Fewer round trips per fact were the next work named for PostgreSQL. Counting the queries of one hold appended alone (a probe wrapping pg.Client.query): BEGIN, the advisory lock, the stream version, the insert, a statement per projection (two), COMMIT. The version and the insert need no round trip between them under the append lock, and the lock's key is a constant.",
  },
  {
    change:
      "Tried and not kept: the group commit's fsync off the event loop (the batch committed at NORMAL, its WAL forced to disk by fdatasync on libuv's thread pool, the batch answered and heard by the process's consumers only then)",
    commit: 'not committed',
    on: '2026-11-28, AMD EPYC',
    before:
      "the throughput–latency curve (FULL, one round a level), four runs alternating with the code after in a worktree: 2,739–2,911 holds/s at 10 connections, 3,102–3,634 at 25, 3,902–4,320 at 50, 3,755–4,569 at 100; the server's core 0.87–0.89 busy at 10 connections",
    after:
      '2,357–2,646 at 10, 2,950–3,592 at 25, 3,372–4,133 at 50, 3,847–4,417 at 100, the core 0.94–0.95 busy at 10; `strace`: 11 fdatasync calls on the WAL for 30 batches',
    why: "A CPU profile of the flash sale put better-sqlite3's transaction wrapper (BEGIN, COMMIT and its fsync, the savepoints) at ~15% of the server's time, and the analysis of the hold's cost named the fsync off the event loop as the next step. On this machine a FULL commit costs ~175 µs against ~12 µs at NORMAL (2,000 one-row commits), so the loop was held only briefly; the thread pool's wake-ups and the smaller commits (each writing its pages again) cost more than the fsync they hid, with the next batch either committed at once or gathered until the sync was done. Reverted; docs/performance.md.",
  },
  {
    change:
      "Tried and not kept: SQLite's temporary files in memory (PRAGMA temp_store = MEMORY), where each hold's savepoint in the batched transaction writes the pages it changes again",
    commit: 'not committed',
    on: '2026-11-28, AMD EPYC, a slower one (hello world 16,949 req/s)',
    before:
      "the flash sale's measured window (FULL, 100 connections, 3 s + 10 s), three rounds alternating with the change: 1,729–1,939 holds/s, 516–577 µs of the server's CPU per hold; `strace -y` of 2 s of the sale: 3,628 pwrite64 calls on SQLite's temporary files (/var/tmp/etilqs_*) against 1,593 on the WAL",
    after: '1,706–1,970 holds/s, 504–588 µs per hold: no difference the rounds show',
    why: "better-sqlite3 builds SQLite with SQLITE_TEMP_STORE=1 (files unless asked), and strace showed more writes to temporary files (the savepoints' journals) than to the WAL. They land in the page cache and cost a few µs a hold; the change is harmless but measured nothing, so it was not made.",
  },
]

const files = runFiles(values.record === true).bench
const dir = dirname(files.json)
// A partial run (--only) replaces its benches' figures in the last results and keeps the others;
// the latest results start from the committed ones.
const lastResults = [files.json, runFiles(true).bench.json].find((file) => existsSync(file))
const previous: Record<string, unknown> =
  only && lastResults ? JSON.parse(readFileSync(lastResults, 'utf8')) : {}
const thisRun = machine()
const results: Record<string, unknown> = values.render ? previous : { ...previous, machine: thisRun }
/** what each bench's figures were measured on: the run that measured them, not the last one */
const measuredOn = ((results.measuredOn as Record<string, Machine> | undefined) ?? {}) as Record<
  string,
  Machine
>
results.measuredOn = measuredOn
const log = (name: string, result: unknown) => {
  results[name] = result
  measuredOn[name] = thisRun
  console.log(name, JSON.stringify(result))
}

if (wanted('append')) log('append', [benchAppend('NORMAL'), benchAppend('FULL')])
if (wanted('flash-sale')) {
  log('flashSale', [
    await benchFlashSale('FULL', quick ? 1 : 3),
    await benchFlashSale('NORMAL', quick ? 1 : 3),
  ])
  log('latencyCurve', await latencyCurve('FULL', quick ? [10, 100] : [10, 25, 50, 100], quick ? 1 : 3))
}
if (wanted('watched-sale')) log('watchedSale', await watchedSale(200, quick ? 1 : 3))
if (wanted('purchase'))
  log('purchase', [await benchPurchase('FULL', quick ? 1 : 3), await benchPurchase('NORMAL', quick ? 1 : 3)])
if (wanted('floor'))
  log('floor', {
    hold: await benchHoldFloor(quick ? 1 : 3),
    purchaseJobs: await benchPurchaseJobsFloor(quick ? 1 : 3),
  })
if (wanted('balancer')) log('balancer', await benchBalancedSale(quick ? 1 : 3))
if (wanted('fanout')) log('fanout', await benchFanout())
if (wanted('reads')) log('reads', await benchReads(quick ? 1 : 3))
if (wanted('rebuild')) log('rebuild', benchRebuild(quick ? 200_000 : 1_000_000, quick ? 1 : 3))
if (wanted('web')) log('web', await benchWeb())
if (wanted('stores')) log('stores', await benchStores())
if (wanted('sale-stores'))
  log('saleStores', await benchSaleStores(quick ? 1 : 3, (line) => console.log(line)))
if (wanted('dashboards'))
  log('dashboards', await benchDashboards(quick ? 1000 : 3000, 1000, 50, quick ? 1 : 3))
if (wanted('checkin')) log('checkin', await benchCheckin(quick))
if (wanted('pg-cluster')) log('pgCluster', await benchPgCluster(quick, (line) => console.log(line)))
if (wanted('hold-profile')) log('holdProfile', await benchHoldProfile((line) => console.log(line)))
if (wanted('pages')) log('pages', await benchPages((line) => console.log(line)))
if (wanted('seating')) log('seating', await benchSeating(quick, (line) => console.log(line)))
if (wanted('seating-web'))
  log('seatingWeb', await benchSeatingWeb(quick, (line) => console.log(line), !wanted('web')))
if (wanted('queue'))
  log('queue', {
    line: await benchQueueLine(quick ? 2000 : undefined),
    sale: await benchQueueSale(),
    saleFastTick: await benchQueueSale(200),
  })
if (wanted('invoices')) {
  const invoices = await benchInvoices(quick ? 1 : 6, (line) => console.log(line))
  log('invoices', invoices)
  // written with the figures, and the run fails: a refused purchase, an invoice missing, a gap
  if (invoices.problems.length) {
    console.error(`invoices: ${invoices.problems.length} problems:\n${invoices.problems.join('\n')}`)
    process.exitCode = 1
  }
}
if (wanted('webhooks')) {
  const webhooks = await benchWebhooks(quick, (line) => console.log(line))
  log('webhooks', webhooks)
  // written with the figures, and the run fails: a delivery missing, twice or out of order, a
  // refused purchase (the ratio is judged in RESULTS.md)
  if (webhooks.problems.length) {
    console.error(`webhooks: ${webhooks.problems.length} problems:\n${webhooks.problems.join('\n')}`)
    process.exitCode = 1
  }
}
// the soak only when asked (ten minutes and more): npm run bench -- --only soak
if (only?.has('soak')) log('soak', await benchSoak(quick ? 90 : 600, quick ? 500 : 2000, dir))
// the plot drawn again from the figures kept, so RESULTS and the plot always show the same run
if (values.render && previous.soak) drawSoak(previous.soak as SoakResult, dir)

mkdirSync(dir, { recursive: true })
writeFileSync(files.json, `${JSON.stringify(results, null, 2)}\n`)
writeFileSync(files.markdown, markdown(results))
// In the repository's own format (aligned tables), so `npm run lint` stays clean after a run.
spawnSync(join(root, 'node_modules/.bin/biome'), ['format', '--write', files.markdown, files.json], {
  stdio: 'ignore',
})
console.log(`Results written to ${relative(root, files.markdown)} and ${relative(root, files.json)}`)

/** The flash sale and the full purchase on both stores with 1 and 2 app processes (sale-stores). */
function saleStoresSection(s: SaleStoresResult | undefined): string[] {
  if (!s) return []
  const storeName = (store: string) => (store === 'postgres' ? 'PostgreSQL' : 'SQLite')
  const pct = (share: number) => `${Math.round(share * 100)}%`
  const ms = (n: number) => `${Math.round(n * 100) / 100}`
  const rounds = s.flashSale[0]?.rounds.length ?? s.purchase[0]?.rounds.length ?? 0
  const other = [...s.flashSale.flatMap((f) => f.rounds), ...s.purchase.flatMap((p) => p.rounds)]
  const otherShare = Math.max(0, ...other.map((r) => r.otherOnServerCore / r.seconds))
  const rows = [
    ...s.flashSale.map((f) => [
      'flash sale',
      storeName(f.store),
      `${f.apps}`,
      `${f.requestsPerSecond} req/s (${f.holdsPerSecond} holds/s)`,
      `${f.p50Ms} / ${f.p99Ms}`,
      `${ms(f.serverCpuMsPerRequest)} (${ms(f.serverCpuMsPerRequest - f.databaseCpuMsPerRequest)} + ${ms(f.databaseCpuMsPerRequest)}); Redis ${ms(f.redisCpuMsPerRequest)}`,
      `${pct(f.serverSideCpuShare)} / ${pct(f.loadCpuShare)}`,
      `${f.held} of ${f.seats} held, ${f.refused} refused, oversold ${f.oversold}` +
        (f.otherAnswers ? `, **${f.otherAnswers} other answers**` : ''),
    ]),
    ...s.purchase.map((p) => [
      'full purchase',
      storeName(p.store),
      `${p.apps}`,
      `${p.paidOrdersPerSecond} paid orders/s`,
      `${p.p50Ms} / ${p.p99Ms}`,
      `${ms(p.serverCpuMsPerOrder)} (${ms(p.serverCpuMsPerOrder - p.databaseCpuMsPerOrder)} + ${ms(p.databaseCpuMsPerOrder)}); Redis ${ms(p.redisCpuMsPerOrder)}`,
      `${pct(p.serverSideCpuShare)} / ${pct(p.loadCpuShare)}`,
      `${p.sold} of ${p.orders} sold, ${p.failed} failed` +
        (Object.keys(p.failures).length ? ` (${JSON.stringify(p.failures)})` : ''),
    ]),
  ]
  return [
    '## Stores: SQLite and PostgreSQL, 1 and 2 app processes',
    '',
    'The flash sale and the full purchase above, measured alike on each store (`npm run bench -- --only sale-stores`):',
    'the same load generators, connections, warm-up and amounts, the load spread over the app processes (one',
    'autocannon per process, the connections shared out; the buyers round-robin). The whole server side (the app',
    "processes with their workers inline, this database's PostgreSQL backends, Redis) is pinned to the server's",
    'core and the load generator to the other, so both stores get the same one core: two app processes share it,',
    'and their figures say what a second process costs on the same hardware, not what a second machine would add.',
    `SQLite at synchronous=FULL, PostgreSQL as installed (fsync on); medians of ${rounds} round${rounds === 1 ? '' : 's'}.`,
    'CPU is per request (flash sale) or per paid order (full purchase): app processes + PostgreSQL backends.',
    `Other programs used up to ${pct(otherShare)} of the server's core during a round (near 0% on a quiet machine);`,
    'the PostgreSQL server is shared with whatever else uses it (WAL, shared buffers, checkpoints), and on a busy',
    "one its backends' CPU per request rises: the rounds' own figures are in latest.json.",
    '',
    '| bench | store | app processes | throughput | p50 / p99 ms | server CPU ms (app + database) | server side / generator CPU (share of the run) | check |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
  ]
}

/** Every configuration of pg-cluster, with the CPU of each part (issue 39). */
function pgClusterSection(c: PgClusterResult | undefined): string[] {
  if (!c) return []
  const pct = (share: number) => `${Math.round(share * 100)}%`
  const rounds = c.configs[0]?.rounds.length ?? 0
  const rows = c.configs.map((f) => {
    const others = f.rounds.flatMap((r) => [
      ...Object.entries(r.statusCodes).map(([code, count]) => `${count} × ${code}`),
      ...(r.errors ? [`${r.errors} failed`] : []),
    ])
    return [
      f.name,
      f.store === 'postgres' ? 'PostgreSQL' : 'SQLite',
      f.delayMs > 0 ? `${f.delayMs} ms` : 'loopback',
      `${f.apps}`,
      f.sameEvent ? 'one, shared' : 'one each',
      `${f.holdsPerSecond.toLocaleString('en')}`,
      `${f.p50Ms} / ${f.p99Ms}`,
      `${pct(f.cpu.apps)} / ${pct(f.cpu.database)} / ${pct(f.cpu.redis)}`,
      `${pct(f.cpu.generator)} / ${pct(f.cpu.proxy)}`,
      others.length ? others.join(', ') : '–',
      f.rounds
        .map(
          (r) =>
            `${r.replaced} of ${(r.holds ?? Math.round(r.holdsPerSecond * r.seconds)).toLocaleString('en')}`,
        )
        .join('; '),
    ]
  })
  return [
    '## PostgreSQL a network away: holds with 1, 2 and 4 app processes (issue 39)',
    '',
    '`npm run bench -- --only pg-cluster`: a TCP proxy (tests/bench/lib/delay-proxy.ts) adds D ms each way to',
    'every chunk between the app processes and PostgreSQL (a round trip 2D more). Each app process (WORKERS=off)',
    `has ${c.clientsPerProcess} buyers holding a seat again and again, the next hold sent when the last is answered (a`,
    "buyer's new hold replaces their last), for a window of " +
      `${c.seconds} s after ${c.warmupSeconds} s of warm-up; medians of ${rounds} round${rounds === 1 ? '' : 's'}.`,
    "The app processes, this database's PostgreSQL backends and Redis share the server's core; the generator and",
    'the proxy the other. CPU is a share of the window (100% = one core busy throughout); what else ran on the',
    "server's core shows in latest.json (otherOnServerCore, per round): on a busy machine it takes from the app.",
    '',
    '| configuration | store | delay each way | app processes | events | holds/s | p50 / p99 ms | CPU apps / PostgreSQL / Redis | CPU generator / proxy | other answers | holds that replaced the buyer’s last |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
  ]
}

/** Where the server's CPU goes in a hold, by part (issue 39, item 3). */
function pagesSection(p: PagesResult | undefined): string[] {
  if (!p) return []
  const kinds: Array<[string, StepPages]> = [
    ['a hold, with an invoice to come (₹500 + 18% GST)', p.purchases.withInvoice.hold],
    ['its payment and confirmation (the invoice issued)', p.purchases.withInvoice.pay],
    ['a hold, no invoice (no billing profile)', p.purchases.without.hold],
    ['its payment and confirmation', p.purchases.without.pay],
    ["a count hold (replacing a named seat's hold)", p.holds.count],
    ['a best-seat hold (replacing a count hold)', p.holds.best],
    ["a named seat's hold (replacing a best seat's)", p.holds.named],
  ]
  const top = (s: StepPages) =>
    Object.entries(s.by)
      .slice(0, 8)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ')
  return [
    '## What a hold and a purchase write (pages, issues 40 and 42)',
    '',
    '`npm run bench -- --only pages`: the app in-process on SQLite, one request at a time, the pages each step',
    "appends to the write-ahead log until the app is quiet (its consumers' commits included), by table or index.",
    `A page changed costs a commit ${p.pageCpuUs} µs of CPU here (synchronous FULL; a transaction of one row ${p.oneRowTransactionCpuUs} µs).`,
    '',
    '| step | pages | commits | most pages |',
    '|---|---|---|---|',
    ...kinds.map(([name, s]) => `| ${name} | ${s.pages} | ${s.commits} | ${top(s)} |`),
    '',
  ]
}

function seatingSection(s: SeatingResult | undefined): string[] {
  if (!s) return []
  const m = s.map
  const h = s.holds
  return [
    '## Reserved seating (seating, issue 40)',
    '',
    '`npm run bench -- --only seating`: one app on the server core (SQLite, synchronous FULL), the load on the other.',
    '',
    `- The map of ${m.seats.toLocaleString('en')} seats (GET /event/{id}/seatmap, gzip): ${Math.round(m.gzipBytes / 1000).toLocaleString('en')} kB`,
    `  (${(m.jsonBytes / 1e6).toFixed(1)} MB of JSON; target at most 600 kB); made again right after a seat changed: median ${m.medianMs} ms,`,
    `  p99 ${m.p99Ms} ms over ${m.requests} requests (target at most 100 ms); unchanged since: ${m.keptMedianMs} ms.`,
    `- Holds, autocannon with ${h.connections} connections, ${h.perRound.toLocaleString('en')} buyers a round, ${h.rounds} rounds alternating:`,
    `  a count of general admission ${h.countedPerSecond.join(', ')} holds/s (p99 ${h.countedP99Ms} ms); the best seat of the`,
    `  seated section ${h.seatedPerSecond.join(', ')} holds/s (p99 ${h.seatedP99Ms} ms): **${h.ratio}** of the counts' rate`,
    ...(h.namedPerSecond
      ? [
          `  (target at least 0.8); a seat the buyer names ${h.namedPerSecond.join(', ')} holds/s (p99 ${h.namedP99Ms} ms):`,
          `  **${h.namedRatio}** of the counts' rate (target at least 0.8); the generator's CPU ${h.generatorCpuShare} of its`,
          `  time; refused: ${JSON.stringify(h.refused)}.`,
          ...(h.namedPairs && h.seatedPairs && h.cpuMsPerHold && h.serverCoreBusy
            ? [
                `- Each round's rate as a share of the count holds' round of its cycle: best seat ${h.seatedPairs.ratios.join(', ')},`,
                `  mean ${pairedText(h.seatedPairs)}: ${pairedFloorVerdict(h.seatedPairs, 0.8)}; named seat ${h.namedPairs.ratios.join(', ')},`,
                `  mean ${pairedText(h.namedPairs)}: ${pairedFloorVerdict(h.namedPairs, 0.8)}. The app's CPU per hold (ms):`,
                `  counts ${h.cpuMsPerHold.counted.join(', ')}; best seat ${h.cpuMsPerHold.seated.join(', ')}; named seat ${h.cpuMsPerHold.named.join(', ')};`,
                `  the server's core busy ${Math.min(...busy(h.serverCoreBusy))}–${Math.max(...busy(h.serverCoreBusy))} of the rounds' time.`,
              ]
            : []),
        ]
      : [
          `  (target at least 0.8); the generator's CPU ${h.generatorCpuShare} of its time; refused: ${JSON.stringify(h.refused)}.`,
        ]),
    '',
  ]
}

/** the server core's busy shares of every round of the seating bench */
function busy(b: { counted: number[]; seated: number[]; named: number[] }) {
  return [...b.counted, ...b.seated, ...b.named]
}

/** a paired ratio's mean and 95% interval, as RESULTS.md gives it */
function pairedText(p: Interval) {
  return `${p.mean} (95% ${p.low}–${p.high}, ${p.n} pairs)`
}

/** a ratio's target (at most `bound`) as the pairs' interval tells it: met only when all of it is */
function pairedVerdict(p: Interval, bound: number) {
  return p.high <= bound ? 'met' : p.low > bound ? '**missed**' : 'not shown (the interval spans the target)'
}

/** a ratio's floor (at least `bound`) as the pairs' interval tells it: met only when all of it is */
function pairedFloorVerdict(p: Interval, bound: number) {
  return p.low >= bound ? 'met' : p.high < bound ? '**missed**' : 'not shown (the interval spans the target)'
}

/** Invoices on both stores (issue 42): the server's CPU per purchase with and without them, and the checks. */
function invoicesSection(v: InvoicesResult | undefined): string[] {
  if (!v) return []
  const pct = (share: number) => `${Math.round(share * 100)}%`
  const range = (x: Spread) => `${x.median} (${x.min}–${x.max})`
  const rows = v.stores.flatMap((s) =>
    (['with', 'without'] as const).map((kind) => {
      const f = s[kind]
      return [
        s.store === 'postgres' ? 'PostgreSQL' : 'SQLite',
        kind === 'with' ? 'with a profile (a tax invoice each)' : 'without (no tax, no invoice)',
        range(f.cpuMsPerPurchase),
        range(f.settledCpuMsPerPurchase),
        // results recorded before the mails were measured apart have none of these
        f.mailsCpuMsPerPurchase ? range(f.workersCpuMsPerPurchase) : '–',
        f.mailsCpuMsPerPurchase ? range(f.mailsCpuMsPerPurchase) : '–',
        f.mailsCpuMsPerPurchase ? range(f.serverCpuMsPerPurchase) : '–',
        `${f.databaseCpuMsPerPurchase}`,
        `${f.redisCpuMsPerPurchase}`,
        range(f.purchasesPerSecond),
        range(f.p99Ms),
        pct(f.generatorCpuShare),
        kind === 'with' ? `${s.ratio} / ${s.settledRatio} / ${s.mailsRatio ?? '–'} / ${s.serverRatio}` : '–',
      ]
    }),
  )
  const checked = v.stores
    .map(
      (s) =>
        `${s.store === 'postgres' ? 'PostgreSQL' : 'SQLite'} ${s.invoicesChecked.toLocaleString('en')} invoices, the organizers' last numbers ${Math.min(...s.highestNumbers)}–${Math.max(...s.highestNumbers)}`,
    )
    .join('; ')
  return [
    '## Invoices: 1,000 purchases at once across 20 organizers (invoices, issue 42)',
    '',
    '`npm run bench -- --only invoices`: on each store (SQLite at synchronous=FULL in a fresh data folder;',
    'PostgreSQL in a fresh database) one app process (WORKERS=off) and one worker process (workers/main.ts:',
    "the payments' captures and the confirmation mails), the whole server side on the server's core",
    '(lib/deploy.ts), and the generator (tests/bench/lib/invoice-buyers.ts) on the other. The mail queue is',
    "paused for each burst and resumed after it, so the mails' passes and invoice PDFs are measured apart.",
    `${v.organizers} organizers each sell one event (state 27, prices without tax, one type at ₹${v.price} and ${v.taxRate}% GST);`,
    `${v.purchases.toLocaleString('en')} buyers each buy one ticket (hold → pay at the local gateway → confirm), all ${v.concurrency.toLocaleString('en')} in flight`,
    'at once, the connections opened before the burst. Rounds by organizers with a billing profile (each',
    'purchase issues a tax invoice in its organizer’s series) alternate with rounds by as many organizers',
    `without one (no tax, no invoice), fresh events each round; one warm-up round of each, then ${v.rounds} of each,`,
    "medians (min–max). The purchase's CPU is the app's, the worker's and the PostgreSQL backends' per",
    'purchase, from the burst to its last confirm and until the server side was quiet after it (of it the',
    'worker’s, the captures, apart); the mails’, from the queue’s resuming until quiet; the server side’s,',
    'the purchase’s and the mails’; Redis apart. After every round each organizer’s GET /organizer/invoices',
    'is read: every purchase has exactly one invoice, of the right total, and the numbers run 1..n over all',
    `the rounds, with no gap or repeat. Checked: ${checked}; ${v.problems.length} problems${v.problems.length ? `: ${v.problems.slice(0, 5).join('; ')}` : ''}.`,
    '',
    "| store | organizers | the purchase's CPU ms per purchase, to the last confirm | until quiet | of it the worker's (captures) | the mails' (passes, PDFs) | the server side's | of it PostgreSQL | Redis | purchases/s | p99 ms | generator CPU | ratio with / without (purchase to confirm / until quiet / mails / server side) |",
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    ...v.stores
      .filter((s) => s.pairedRatio)
      .map(
        (s) =>
          `${s.store === 'postgres' ? 'PostgreSQL' : 'SQLite'}, each pair of rounds' ratio (the purchase to its last confirm, with ÷ without, in the order run): ${s.pairRatios.join(', ')}; their mean ${pairedText(s.pairedRatio)} (Student's t).`,
      )
      .flatMap((line) => [line, '']),
  ]
}

/** Webhooks (issue 43): the sale with 3 endpoints against without, the deliveries' checks, a receiver down. */
function webhooksSection(v: WebhooksResult | undefined): string[] {
  if (!v) return []
  const pct = (share: number) => `${Math.round(share * 100)}%`
  const range = (x: Spread) => `${x.median} (${x.min}–${x.max})`
  const rows = (['with', 'without'] as const).map((kind) => {
    const f = v[kind]
    return [
      kind === 'with' ? `with ${v.endpoints} endpoints (order.paid)` : 'without endpoints',
      range(f.purchasesPerSecond),
      range(f.p99Ms),
      range(f.cpuMsPerPurchase),
      range(f.settledCpuMsPerPurchase),
      `${f.redisCpuMsPerPurchase}`,
      pct(f.generatorCpuShare),
      kind === 'with' ? `${v.ratio} / ${v.cpuRatio} / ${v.settledCpuRatio}` : '–',
    ]
  })
  const d = v.deliveries
  const down = v.down
  return [
    `## Webhooks: ${v.orders.toLocaleString('en')} paid orders with ${v.endpoints} endpoints each (webhooks, issue 43)`,
    '',
    '`npm run bench -- --only webhooks`: SQLite at synchronous=FULL in a fresh data folder, one app process with its',
    "workers inline, the whole server side on the server's core (lib/deploy.ts); the generator",
    '(tests/bench/lib/invoice-buyers.ts) and a receiver (tests/bench/lib/webhook-receiver.ts: one port per endpoint,',
    'each delivery verified with the Standard Webhooks library and answered 204) on the other. WEBHOOKS_ALLOW_PRIVATE=on',
    `so the server may send to this machine; retries at their default (${v.retryBaseMs / 1000} s after a failure, doubling), the deliverer's`,
    `tick at its default. One organizer has ${v.endpoints} endpoints wanting order.paid, another none. Rounds of the same sale`,
    `(${v.roundPurchases.toLocaleString('en')} purchases: hold → pay at the local gateway → confirm, ${v.concurrency} in flight) on a fresh event of the one with`,
    `endpoints alternate with rounds on a fresh event of the one without; one warm-up round of each, then ${v.rounds} of each,`,
    'medians (min–max). CPU is the app’s (SQLite runs in it) per purchase, to the last confirm and until every delivery',
    'of the round arrived and the server was quiet; Redis apart. While the receiver was up, a delivery arrived',
    `${v.deliveryLagMs.p50} ms after its fact at the median, p99 ${v.deliveryLagMs.p99} ms, at most ${v.deliveryLagMs.max} ms.`,
    '',
    '| organizer | purchases/s | p99 ms | CPU ms per purchase, to the last confirm | until delivered and quiet | Redis | generator CPU | ratio with / without (purchases/s / CPU / until quiet) |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    `Receiver down: the other ${down.purchases.toLocaleString('en')} orders were sold with the receiver down (connections refused); it`,
    `came back ${down.seconds} s after it went down, owed ${down.owed.toLocaleString('en')} deliveries; the first arrived ${down.firstAfterReturnSeconds} s after its return`,
    `(the head delivery's next retry under the backoff) and the last ${down.recoveredSeconds} s after it (${down.catchUpPerSecond} deliveries/s once it`,
    `resumed, ${down.cpuMsPerDelivery} ms of the app's CPU a delivery from the return to the last). Checked over the whole run, warm-up included: ${d.arrived.toLocaleString('en')} of ${d.expected.toLocaleString('en')} deliveries arrived (distinct`,
    `webhook-ids), ${d.missing} missing, ${d.unexpected} unexpected, ${d.duplicates} arriving again after a 2xx answer, ${d.outOfOrder} out of ledger order,`,
    `${d.badSignatures} failing verification, ${d.notDeliveredInLog} not delivered in the server's log of each endpoint's latest; the receiver's CPU`,
    `${v.receiverCpuSeconds} s. ${v.problems.length} problems${v.problems.length ? `: ${v.problems.slice(0, 5).join('; ')}` : ''}.`,
    '',
  ]
}

function holdProfileSection(h: HoldProfileResult | undefined): string[] {
  if (!h) return []
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`
  const w = h.plain
  const p = h.profiled
  return [
    "## Where a hold's CPU goes (hold-profile, issue 39)",
    '',
    '`npm run bench -- --only hold-profile`: the app on one core (SQLite, synchronous FULL), wrk on the other,',
    `${h.connections} connections, each request a hold of 1 seat by the next of ${h.buyers.toLocaleString('en')} buyers in turn, so that every`,
    `hold replaces that buyer's last; ${h.warmupSeconds} s of warm-up, then ${h.seconds} s measured, on a fresh seed and server for each of three runs:`,
    `plain ${w.holdsPerSecond.toLocaleString('en')} holds/s, p50 ${w.p50Ms} ms, p99 ${w.p99Ms} ms, ${w.cpuPerHoldUs} µs of the server's CPU per hold`,
    `(main thread ${w.mainThreadCpuPerHoldUs} µs; Redis ${w.redisCpuPerHoldUs} µs besides), ${w.replaced.toLocaleString('en')} of ${w.holds.toLocaleString('en')} holds replaced one;`,
    `profiled (--cpu-prof every ${h.sampleIntervalUs} µs) ${p.holdsPerSecond.toLocaleString('en')} holds/s, p99 ${p.p99Ms} ms, ${p.cpuPerHoldUs} µs per hold;`,
    `statements counted: ${h.statements.perHold} SQLite statements per hold.`,
    "The plain run's CPU per hold split by the profile's shares (each sample to one part, inclusive of what it",
    `called; tests/bench/lib/cpu-parts.ts). The profiled main thread's samples exceeded its CPU time by ${h.offCpu.usPerHold} µs per hold`,
    `(time waiting off the CPU: the commits' fsync, and on a busy machine the CPU itself); up to the commits' own samples`,
    `(${h.offCpu.commitMs} ms of the window) it was taken out of them, the rest spread over every part as its share.`,
    '',
    '| part | share of the server CPU | µs per hold |',
    '|---|---|---|',
    ...h.table.map((row) => `| ${row.part} | ${pct(row.share)} | ${row.usPerHold} |`),
    '',
    '| statement (most runs per hold first) | runs per hold | µs per run |',
    '|---|---|---|',
    ...h.statements.bySql
      .slice(0, 30)
      .map((s) => `| \`${s.sql.slice(0, 120).replace(/\|/g, '\\|')}\` | ${s.perHold} | ${s.usPerRun} |`),
    '',
  ]
}

/** The benches' names in results (latest.json) and the runs that measured them, oldest first. */
function measuredTable(r: Record<string, unknown>): string[] {
  const on = (r.measuredOn as Record<string, Machine> | undefined) ?? {}
  const names = Object.keys(r).filter((k) => !['machine', 'measuredOn'].includes(k))
  const rows = names.map((name) => ({ name, m: on[name] ?? (r.machine as Machine) }))
  rows.sort((a, b) => a.m.date.localeCompare(b.m.date) || a.name.localeCompare(b.name))
  return [
    '| figures | measured | commit | CPU | cores | Node |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      ({ name, m }) =>
        `| ${name} | ${m.date.slice(0, 16).replace('T', ' ')} UTC | ${m.commit} | ${m.cpu} | ${m.cores} | ${m.node} |`,
    ),
  ]
}

function markdown(r: Record<string, unknown>): string {
  const rows: string[][] = []
  const yes = (ok: boolean) => (ok ? 'met' : '**missed**')
  type Append = ReturnType<typeof benchAppend>
  for (const a of (r.append as Append[] | undefined) ?? []) {
    rows.push([
      `append (${a.synchronous})`,
      `${a.ledgerFactsPerSecond} facts/s (TicketsHeld + its 3 projections; ${a.ledgerOnlyFactsPerSecond}/s with none); ` +
        `WAL pages per commit ${a.walPagesPerCommit.hold} (${a.walPagesPerCommit.ledgerOnly} with none, raw ${a.walPagesPerCommit.raw})`,
      `${a.rawInsertsPerSecond} raw inserts/s`,
      `${a.ratio}`,
      '≥ 0.5',
      yes(a.ratio >= 0.5),
    ])
  }
  type Flash = Awaited<ReturnType<typeof benchFlashSale>>
  const n = (x: number) => x.toLocaleString('en')
  const range = (x: { median: number; min: number; max: number }, unit = '') =>
    `${n(x.median)}${unit} (${n(x.min)}–${n(x.max)})`
  const share = (x: { median: number }) => `${Math.round(x.median * 100)}%`
  // results written before issue 18's method (a cold, amount-based baseline) are not shown
  for (const f of ((r.flashSale as Flash[] | undefined) ?? []).filter((f) => f.holds)) {
    rows.push([
      `flash sale (${f.synchronous}): holds, ${f.concurrency} connections, ${f.warmupSeconds} s warm-up + ${f.seconds} s`,
      `${range(f.holds, ' holds/s')}, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms; generator CPU ${share(f.generatorCpuShare)}, server ${share(f.serverCpuShare)}`,
      `${range(f.baseline.requests, ' req/s')} hello world, warmed and measured alike; generator CPU ${share(f.baseline.generatorCpuShare)}, server ${share(f.baseline.serverCpuShare)}`,
      `${f.ratio}`,
      '≥ 0.25',
      yes(f.ratio >= 0.25),
    ])
    rows.push([
      `flash sale (${f.synchronous}): sell-out`,
      `${n(f.sellOut.orders)} buyers for ${n(f.sellOut.seats)} seats: ${n(f.sellOut.held)} held, ${n(f.sellOut.refused)} refused, oversold ${f.sellOut.oversold}`,
      '–',
      '–',
      'none oversold, every seat held',
      yes(f.sellOut.oversold === 0 && f.sellOut.held === f.sellOut.seats),
    ])
    if (f.wrk)
      rows.push([
        `flash sale (${f.synchronous}): cross-check with wrk (C, one round)`,
        `${n(f.wrk.app.holdsPerSecond)} holds/s, p99 ${f.wrk.app.p99Ms} ms; wrk CPU ${Math.round(f.wrk.app.cpuShare * 100)}%`,
        `${n(f.wrk.hello.requestsPerSecond)} req/s hello world; wrk CPU ${Math.round(f.wrk.hello.cpuShare * 100)}%`,
        `${f.wrk.ratio}`,
        'agrees with the Node generator',
        `${yes(Math.abs(f.wrk.ratio - f.ratio) <= 0.1 * f.ratio)} (${f.ratio} with autocannon)`,
      ])
  }
  type Curve = Awaited<ReturnType<typeof latencyCurve>>
  const curve = r.latencyCurve as Curve | undefined
  if (curve) {
    rows.push([
      `flash sale (${curve.synchronous}): throughput–latency curve`,
      `${curve.rounds ? `medians of ${curve.rounds} rounds: ` : ''}${curve.points
        .map(
          (p) =>
            `${p.connections} conns: ${n(p.holdsPerSecond)} holds/s${p.holds ? ` (${n(p.holds.min)}–${n(p.holds.max)})` : ''}, p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms${p.p99 ? ` (${p.p99.min}–${p.p99.max})` : ''}`,
        )
        .join('; ')}`,
      '–',
      '–',
      `p99 ≤ 50 ms at the fewest connections reaching 90% of the peak (${n(curve.peakHoldsPerSecond)}/s): ${curve.at90.connections}`,
      `${yes(curve.at90.p99Ms <= 50)} (p99 ${curve.at90.p99Ms} ms)`,
    ])
  }
  const watched = r.watchedSale as WatchedSaleResult | undefined
  /** the load core's (generator and pages) and the server's CPU shares, when the run recorded them */
  const shares = (w: WatchedSaleResult, side: 'watched' | 'unwatched') =>
    w.loadCoreShare
      ? `; load core ${Math.round(w.loadCoreShare[side] * 100)}% busy (generator and pages), server ${Math.round(w.serverCpuShare[side] * 100)}%`
      : ''
  if (watched) {
    rows.push([
      `flash sale (FULL) watched by ${n(watched.watchers)} pages of its event (Socket.IO, live seats left)`,
      `${range(watched.watched, ' holds/s')}, p99 ${watched.p99Ms.watched} ms, ${n(watched.cpuPerHoldUs.watched)} µs of the server's CPU per hold; ${n(watched.pushes)} pushes received, ${n(watched.connectedAtEnd)} of ${n(watched.watchers)} pages still connected${shares(watched, 'watched')}`,
      `${range(watched.unwatched, ' holds/s')} with nobody watching, p99 ${watched.p99Ms.unwatched} ms, ${n(watched.cpuPerHoldUs.unwatched)} µs per hold (alternating rounds)${shares(watched, 'unwatched')}`,
      `${watched.ratio}`,
      '≥ 0.9: watching a sale does not slow it',
      yes(watched.ratio >= 0.9 && watched.connectedAtEnd === watched.watchers),
    ])
  }
  type Purchase = Awaited<ReturnType<typeof benchPurchase>>
  for (const p of (r.purchase as Purchase[] | undefined) ?? []) {
    rows.push([
      `full purchase (${p.synchronous})`,
      `${p.paidOrdersPerSecond} paid orders/s, p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, ${p.failed} failed`,
      '–',
      '–',
      '≥ 1,000 paid orders/s',
      yes(p.paidOrdersPerSecond >= 1000),
    ])
  }
  const floor = r.floor as
    | {
        hold: Awaited<ReturnType<typeof benchHoldFloor>>
        purchaseJobs: Awaited<ReturnType<typeof benchPurchaseJobsFloor>>
      }
    | undefined
  if (floor) {
    const { hold, purchaseJobs: jobs } = floor
    const [bare, ...steps] = hold.ladder ?? []
    const perHold = (x: { holds: Spread; cpuMicros: Spread; p99Ms: number }) =>
      `${range(x.holds, ' holds/s')}, ${n(x.cpuMicros.median)} µs of the server's CPU a hold, p99 ${x.p99Ms} ms`
    if (bare) {
      rows.push([
        `the hold's floor (lib/hold-floor.ts: token, body schema, a group-committed FULL append; nothing else), ${hold.concurrency} connections`,
        `${perHold(bare)}, ${hold.floorRatio} of hello world; generator CPU ${share(bare.generatorCpuShare)}; medians of ${hold.rounds} rounds, each round hello world, the floor, its steps below and the app in turn`,
        `the app ${perHold(hold.app)} (${hold.appRatio} of hello world); hello world ${range(hold.hello, ' req/s')}`,
        `${hold.appOfFloor}`,
        "the flash sale's 0.25 of hello world is within any design's reach when the floor is above it; the app needs ≥ " +
          `${round(0.25 / hold.floorRatio, 3)} of the floor`,
        `floor ${yes(hold.floorRatio >= 0.25)}; the app ${yes(hold.appOfFloor >= 0.25 / hold.floorRatio)}`,
      ])
      for (const step of steps)
        rows.push([
          `the hold's floor ${step.name} (the app's own queries)`,
          perHold(step),
          '–',
          `${round(step.holds.median / bare.holds.median, 3)} of the floor`,
          '–',
          `${round(step.holds.median / hold.hello.median, 3)} of hello world`,
        ])
    }
    rows.push([
      `a purchase's jobs alone (lib/purchase-jobs.ts: the app's BullMQ adapter), ${jobs.concurrency} at a time`,
      `${range(jobs.jobsPerSecond, ' purchases/s')}, ${n(jobs.jobsCpuMicros.median)} µs of the core per purchase (the expiry, the confirmation enqueued twice and done, the mail enqueued and done; ${n(jobs.purchases)} purchases); medians of ${jobs.rounds} rounds alternating with the full purchase`,
      `the full purchase (FULL) ${range(jobs.app, ' paid orders/s')}`,
      `${jobs.appOfFloor}`,
      "the purchase's 1,000 paid orders/s is within reach only when its jobs alone allow more",
      `jobs alone ${yes(jobs.jobsPerSecond.median >= 1000)}; the app ${yes(jobs.app.median >= 1000)}`,
    ])
  }
  const balanced = r.balancer as Awaited<ReturnType<typeof benchBalancedSale>> | undefined
  if (balanced) {
    const { direct, nginx } = balanced.ways
    const way = (w: typeof direct, what: string) =>
      `${n(w.holdsPerSecond)} holds/s, p50 ${w.p50Ms} ms, p99 ${w.p99Ms} ms (${w.p99Spread.join(', ')}) ${what}; wrk CPU ${Math.round(w.wrkCpuShare * 100)}%`
    rows.push([
      `flash sale (FULL) through nginx (deploy/nginx.conf), wrk, ${balanced.connections} connections, medians of ${balanced.rounds} rounds`,
      way(nginx, 'through nginx, on the load core'),
      way(direct, 'straight at the app'),
      `${round(nginx.holdsPerSecond / direct.holdsPerSecond, 3)}`,
      "p99 ≤ 1.5× the app's own: the proxy does not make the sale wait",
      `${yes(nginx.p99Ms <= 1.5 * direct.p99Ms)} (${round(nginx.p99Ms / direct.p99Ms, 2)}×)`,
    ])
    if (balanced.live?.length) {
      const liveRound = (l: (typeof balanced.live)[number]) =>
        `${l.connected}/${balanced.liveClients} connected, p50 ${n(l.p50Ms)} ms, p90 ${n(l.p90Ms)} ms${
          Object.keys(l.errors).length
            ? `, failed: ${Object.entries(l.errors)
                .map(([k, c]) => `${k} ${c}`)
                .join(', ')}`
            : ''
        }`
      rows.push([
        `${balanced.liveClients} pages' live connections (Socket.IO, long-polling then WebSocket) opened at once through nginx during the sale above, each round`,
        balanced.live.map(liveRound).join('; '),
        `without the live upstream's keepalive (before): ${balanced.liveBefore.map(liveRound).join('; ')}`,
        '–',
        'every page connects',
        yes(balanced.live.every((l) => l.connected === balanced.liveClients)),
      ])
    }
    const before = balanced.ways['nginx-32']
    rows.push([
      'the same through nginx keeping 32 idle connections to the app (the file before)',
      way(before, 'through nginx'),
      way(direct, 'straight at the app'),
      `${round(before.holdsPerSecond / direct.holdsPerSecond, 3)}`,
      '–',
      `p99 ${round(before.p99Ms / direct.p99Ms, 2)}× the app's own`,
    ])
  }
  const fan = r.fanout as Awaited<ReturnType<typeof benchFanout>> | undefined
  if (fan) {
    rows.push([
      `live fan-out (${fan.clients} sockets)`,
      `p50 ${fan.p50Ms} ms, p99 ${fan.p99Ms} ms, ${fan.deliveriesPerSecond} deliveries/s (${fan.delivered}/${fan.expected} delivered)`,
      `ws: p50 ${fan.baselineP50Ms} ms, p99 ${fan.baselineP99Ms} ms, ${fan.baselineDeliveriesPerSecond} deliveries/s`,
      `${fan.ratio}`,
      'p99 ≤ 100 ms, ≥ 0.5',
      `${yes(fan.p99Ms <= 100)} / ${yes(fan.ratio >= 0.5)}`,
    ])
    rows.push([
      'memory',
      `RSS ${fan.rssIdleMb} MB idle, ${fan.rssWithSocketsMb} MB with ${fan.clients} sockets`,
      '–',
      '–',
      '≤ 300 MB with 2,000 sockets',
      yes(fan.rssWithSocketsMb <= 300),
    ])
  }
  const queue = r.queue as
    | { line: QueueLineResult; sale: QueueSaleResult; saleFastTick?: QueueSaleResult }
    | undefined
  if (queue) {
    const q = queue.line
    const n0 = (x: number) => x.toLocaleString('en')
    const errors = (e: Record<string, number>) => Object.values(e).reduce((a, b) => a + b, 0)
    rows.push([
      `queue: ${n0(q.clients)} buyers in line on one process (${n0(q.early)} in the pre-queue), RSS${q.heapGrowingPercent ? ` (HEAP_GROWING_PERCENT=${q.heapGrowingPercent})` : ''}`,
      `${q.rssConnectedMb} MB connected, at most ${q.rssMaxMb} MB while the line moved (${q.rssIdleMb} MB idle); connected in ${round(q.connectMs / 1000, 1)} s, ` +
        `the pre-queue joined in ${round(q.earlyJoinMs / 1000, 1)} s, the rest in ${round(q.lateJoinMs / 1000, 1)} s; ` +
        `${errors(q.joinErrors)} join errors, ${errors(q.connectErrors)} refused connections, ${q.disconnects} dropped`,
      '–',
      '–',
      '≤ 600 MB with 20,000',
      `${yes(q.rssMaxMb <= 600)}${q.clients < 20_000 ? ` (at ${n0(q.clients)})` : ''}`,
    ])
    rows.push([
      `queue: each place pushed after an admission (${q.admitPerMinute}/min, admitter every ${q.tickMs} ms)`,
      `p50 ${q.push.p50Ms} ms, p99 ${q.push.p99Ms} ms, max ${q.push.maxMs} ms over ${n0(q.push.deliveries)} places heard, ${n0(q.push.missing)} never heard; ` +
        `the server's core ${Math.round(q.cpu.serverShare * 100)}% busy, the generators ${q.cpu.generatorSeconds} s of CPU in all`,
      '–',
      '–',
      'p99 ≤ 2 s',
      `${yes(q.push.p99Ms <= 2000 && q.push.missing === 0)}`,
    ])
    rows.push([
      'queue: the admission rate over the window',
      `${q.measuredPerMinute}/min (${n0(q.admitted)} admitted over ${q.windowSeconds} s); ${q.backwards} places went backwards, ${q.overlaps} lines admitted twice, ${q.admittedTwice} buyers told twice`,
      `${q.admitPerMinute}/min set`,
      `${round(q.measuredPerMinute / q.admitPerMinute, 3)}`,
      'within 5%; none backwards, nobody twice',
      `${yes(Math.abs(q.measuredPerMinute / q.admitPerMinute - 1) <= 0.05)} / ${yes(q.backwards === 0 && q.overlaps === 0 && q.admittedTwice === 0)}`,
    ])
    for (const sale of [queue.sale, queue.saleFastTick]) {
      if (!sale) continue
      const run = (x: QueueSaleRun) =>
        `${n0(x.sold)} of ${n0(x.buyers)} sold, ${round(x.soldPerSecond, 0)} tickets/s; a purchase p50 ${round(x.purchase.p50, 0)} ms, p99 ${round(x.purchase.p99, 0)} ms` +
        (x.room
          ? `, arrival to ticket p50 ${round(x.total.p50, 0)} ms, p99 ${round(x.total.p99, 0)} ms`
          : '') +
        `; ${errors(x.failures)} failed; the server's core ${Math.round(x.serverCpuShare * 100)}%, the generator ${round(x.cpuSeconds, 1)} s of CPU`
      rows.push([
        `queue: ${n0(sale.buyers)} buyers arriving at once, each buying a ticket, behind a room admitting to ${sale.checkouts} checkouts (admitter every ${sale.tickMs} ms)`,
        run(sale.behindRoom),
        `no room: ${run(sale.noRoom)}`,
        `${sale.ratio}`,
        '≥ 0.9 of the sale without a room',
        yes(sale.ratio >= 0.9),
      ])
    }
  }
  const reads = r.reads as Awaited<ReturnType<typeof benchReads>> | undefined
  /** a median's rounds, lowest to highest, when there were several */
  const between = (spread?: { min: number; max: number }) =>
    spread && spread.min !== spread.max ? ` (${n(spread.min)}–${n(spread.max)})` : ''
  for (const route of reads?.routes ?? []) {
    const listing = route.route.startsWith('GET /event (1,000 events)')
    // the better of the two generators' ratios: the lower one was limited by its generator
    const best = Math.max(route.ratio, route.wrk?.ratio ?? 0)
    rows.push([
      `reads: ${route.route}`,
      `${route.requestsPerSecond} req/s${between(route.spread)}, p50 ${route.p50Ms} ms, p99 ${route.p99Ms} ms` +
        (route.generatorCpuShare === undefined
          ? ''
          : `; generator CPU ${Math.round(route.generatorCpuShare * 100)}%`) +
        (route.wrk
          ? `; wrk ${route.wrk.requestsPerSecond} req/s${between(route.wrk.spread)}, p99 ${route.wrk.p99Ms} ms, its CPU ${Math.round(route.wrk.cpuShare * 100)}%`
          : ''),
      `${reads?.baselineRequestsPerSecond} req/s${between(reads?.baselineSpread)} hello world` +
        (reads?.baselineGeneratorCpuShare === undefined
          ? ''
          : `; generator CPU ${Math.round(reads.baselineGeneratorCpuShare * 100)}%`) +
        (reads?.wrkBaseline
          ? `; wrk ${reads.wrkBaseline.requestsPerSecond} req/s${between(reads.wrkBaseline.spread)}, its CPU ${Math.round(reads.wrkBaseline.cpuShare * 100)}%`
          : ''),
      `${route.ratio}${route.wrk ? ` (wrk ${route.wrk.ratio})` : ''}`,
      listing ? '≥ 0.3' : 'report',
      listing ? yes(best >= 0.3) : '–',
    ])
  }
  const rebuild = r.rebuild as ReturnType<typeof benchRebuild> | undefined
  if (rebuild) {
    rows.push([
      `rebuild (${rebuild.facts.toLocaleString('en')} facts)`,
      `${rebuild.rebuildFactsPerSecond} facts/s`,
      `${rebuild.rawCopyRowsPerSecond} rows/s raw read + insert`,
      `${rebuild.ratio}`,
      '≥ 0.3',
      yes(rebuild.ratio >= 0.3),
    ])
  }
  const web = r.web as Awaited<ReturnType<typeof benchWeb>> | undefined
  for (const route of web?.routes ?? []) {
    rows.push([
      `web: ${route.route}`,
      `${route.gzippedKb} kB gzipped JS (${route.scripts} files)`,
      `${web?.seedProductKb} kB (seed product, every route)`,
      '–',
      route.target ? `≤ ${route.target} kB` : 'calendar and charts only where used',
      route.target ? yes(route.gzippedKb <= route.target) : 'met',
    ])
  }
  for (const store of (r.stores as StoreFigures[] | undefined) ?? []) {
    rows.push([
      `stores: a hold with every projection on ${store.store}`,
      `${store.sequentialPerSecond} holds/s one after another; ${store.groupedPerSecond}/s with 64 in flight (group commit)` +
        (store.groupedTwoPoolsPerSecond ? `, ${store.groupedTwoPoolsPerSecond}/s from two pools` : ''),
      `${store.rawSequentialPerSecond} raw inserts/s one after another`,
      `${round(store.sequentialPerSecond / store.rawSequentialPerSecond, 3)}`,
      '– (where each store is the better choice)',
      '–',
    ])
  }
  const dash = r.dashboards as DashboardsResult | undefined
  /** a core's busy share as a percentage (server core / load core in the rows below) */
  const pct = (share: number) => `${Math.round(share * 100)}%`
  if (dash) {
    rows.push([
      `dashboards: a ${dash.orders.toLocaleString('en')}-order sale watched (organizer of ${dash.events.toLocaleString('en')} events, admin)`,
      `${dash.watchedSeconds} s watched (rounds: ${dash.rounds.map((p) => `${p.watched} s, cores ${pct(p.coresWatched.server)}/${pct(p.coresWatched.load)}`).join('; ')})`,
      `${dash.unwatchedSeconds} s unwatched (rounds: ${dash.rounds.map((p) => `${p.unwatched} s, cores ${pct(p.coresUnwatched.server)}/${pct(p.coresUnwatched.load)}`).join('; ')})`,
      `${dash.slowdown}`,
      '≤ 1.10',
      yes(dash.slowdown <= 1.1),
    ])
    rows.push([
      'dashboards: the same sale with the browser open on two blank tabs (no dashboard open)',
      `${median(dash.rounds.map((p) => p.browserOnly))} s (rounds: ${dash.rounds.map((p) => `${p.browserOnly} s, Chromium ${p.chromiumCpuSecondsBrowserOnly} s of CPU`).join('; ')})`,
      `${dash.unwatchedSeconds} s with no browser`,
      `${round(median(dash.rounds.map((p) => p.browserOnly)) / dash.unwatchedSeconds, 3)}`,
      `– (watched ÷ this: ${dash.slowdownOverBrowserOnly})`,
      '–',
    ])
    rows.push([
      "dashboards: the server's own CPU per paid order during that sale",
      `${median(dash.rounds.map((p) => p.serverCpuMsPerOrder.watched))} ms watched (Chromium used ${median(dash.rounds.map((p) => p.chromiumCpuSeconds))} s of CPU, the load ${median(dash.rounds.map((p) => p.loadCpuSeconds.watched))} s)`,
      `${median(dash.rounds.map((p) => p.serverCpuMsPerOrder.unwatched))} ms unwatched (the load ${median(dash.rounds.map((p) => p.loadCpuSeconds.unwatched))} s)`,
      `${dash.serverCpuRatio}`,
      '– (what watching costs the server itself)',
      '–',
    ])
    rows.push([
      `dashboards: attendee list of one event (${dash.attendees.count.toLocaleString('en')} attendees)`,
      `first page ${dash.attendees.firstPageMs} ms, a search ${dash.attendees.searchMs} ms`,
      '–',
      '–',
      'opens in < 1 s',
      yes(dash.attendees.firstPageMs < 1000 && dash.attendees.searchMs < 1000),
    ])
    for (const t of dash.tabs) {
      rows.push([
        `dashboards: ${t.tab} tab`,
        `${t.requestsDuringSale} requests and ${t.framesDuringSale ?? '?'} WebSocket messages, ${t.kbPer1000Orders} kB per 1,000 orders, long tasks ${Math.round(t.longTaskShare * 1000) / 10}% of the sale, ` +
          `final figures ${t.settledMs} ms after the last payment; first view ${t.firstViewMs} ms, ${t.domNodes} DOM nodes` +
          (t.reconnectedMs === undefined
            ? ''
            : `; offline through a server restart and 20 more orders, the final figures ${t.reconnectedMs} ms after reconnecting (${t.backOnlineMs} ms after coming back online, Socket.IO's pause before retrying included)`),
        '–',
        '–',
        '< 1 MB per 1,000 orders, < 10% long tasks, final figures ≤ 1 s; first view < 1 s, < 5,000 nodes; after reconnecting ≤ 1 s',
        `${yes(t.kbPer1000Orders < 1024)} / ${yes(t.longTaskShare < 0.1)} / ${yes(t.settledMs <= 1000)} / ${yes(t.firstViewMs < 1000 && t.domNodes < 5000)}` +
          (t.reconnectedMs === undefined ? '' : ` / ${yes(t.reconnectedMs <= 1000)}`),
      ])
    }
  }
  const door = r.checkin as CheckinResult | undefined
  if (door) {
    rows.push([
      `checkin: ${door.sync.scans.toLocaleString('en')} offline scans synced from ${door.sync.devices} devices at once`,
      `settled in ${door.sync.settledMs} ms (${door.sync.scansPerSecond} scans/s; every scan answered at ${door.sync.answeredMs} ms, ` +
        `batches of ${door.sync.batch}), ${door.sync.admittedAfter} admitted; cores ${pct(door.sync.cores.server)}/${pct(door.sync.cores.load)}`,
      '–',
      '–',
      'report',
      '–',
    ])
    rows.push([
      `checkin: one scan at a time, ${door.rate.plannedPerSecond} scans/s (${door.rate.scans.toLocaleString('en')} scans, open loop)`,
      `p50 ${door.rate.p50Ms} ms, p99 ${door.rate.p99Ms} ms, max ${door.rate.maxMs} ms at ${door.rate.achievedPerSecond} scans/s; ` +
        `cores ${pct(door.rate.cores.server)}/${pct(door.rate.cores.load)}, the generator ${door.rate.cpuSeconds} s of CPU`,
      '–',
      '–',
      'report (the screen allows 300 ms from code seen to result)',
      '–',
    ])
    rows.push([
      `checkin: the ${door.orders} confirmation mails of those ${door.passes.toLocaleString('en')} passes, each pass a QR image`,
      `written ${door.mailsMs} ms after the last payment`,
      '–',
      '–',
      'report',
      '–',
    ])
  }
  const cluster = r.pgCluster as PgClusterResult | undefined
  if (cluster) {
    const of = (name: string) => cluster.configs.find((c) => c.name === name)
    const verdicts = pgClusterVerdicts(cluster)
    const holds = (c: ReturnType<typeof of>) =>
      c
        ? `${n(c.holdsPerSecond)} holds/s, p50 ${c.p50Ms} ms, p99 ${c.p99Ms} ms; CPU apps ${pct(c.cpu.apps)}, PostgreSQL ${pct(c.cpu.database)}, generator ${pct(c.cpu.generator)}`
        : '–'
    const one = of('D5-N1')
    const inFlight = `${cluster.clientsPerProcess} holds in flight a process`
    if (one)
      rows.push([
        `pg-cluster: holds on PostgreSQL 5 ms away (each way), 1 app process, ${inFlight}`,
        holds(one),
        '–',
        '–',
        '≥ 150 holds/s',
        verdicts.one ? yes(verdicts.one.met) : '–',
      ])
    for (const [name, apps, verdict, least] of [
      ['D5-N2', 2, verdicts.two, 1.7],
      ['D5-N4', 4, verdicts.four, 3],
    ] as const) {
      const c = of(name)
      if (!c) continue
      rows.push([
        `pg-cluster: the same with ${apps} app processes, each selling its own event`,
        holds(c),
        `${one ? n(one.holdsPerSecond) : '?'} holds/s with 1 process`,
        verdict ? `${verdict.ratio}` : '–',
        `≥ ${least}× one process`,
        verdict ? yes(verdict.met) : '–',
      ])
    }
    const same = of('D5-N4-one-event')
    if (same)
      rows.push([
        "pg-cluster: one event's sale 5 ms away, 4 app processes all selling it",
        holds(same),
        `${one ? n(one.holdsPerSecond) : '?'} holds/s with 1 process`,
        one ? `${round(same.holdsPerSecond / one.holdsPerSecond, 3)}` : '–',
        'report (one event stays serialised)',
        '–',
      ])
    const loopback = of('D0-N1')
    const sqlite = of('sqlite-N1')
    if (loopback)
      rows.push([
        `pg-cluster: holds on PostgreSQL over loopback (no proxy), 1 app process, ${inFlight}`,
        holds(loopback),
        sqlite
          ? `SQLite (FULL): ${n(sqlite.holdsPerSecond)} holds/s, p50 ${sqlite.p50Ms} ms, p99 ${sqlite.p99Ms} ms; CPU app ${pct(sqlite.cpu.apps)}`
          : '–',
        verdicts.loopback ? `${verdicts.loopback.ratio}` : '–',
        '≥ 0.5 of SQLite',
        verdicts.loopback ? yes(verdicts.loopback.met) : '–',
      ])
  }
  const seatWeb = r.seatingWeb as SeatingWebResult | undefined
  if (seatWeb) {
    const f = seatWeb.firstRender
    const c = seatWeb.churn
    const p = seatWeb.pushes
    rows.push([
      `seating-web: first render of a ${n(seatWeb.seats)}-seat map on the event page (${seatWeb.profile})`,
      `all seats drawn ${n(f.allSeatsMedianMs)} ms (runs ${f.allSeatsMs.map(n).join(', ')}), first seats ${n(f.firstSeatsMedianMs)} ms; ` +
        `long tasks ${n(f.longTasksMs)} ms until drawn; ${n(f.domNodes)} DOM nodes` +
        (f.mapRequestedMs
          ? `; the event asked for at ${n(f.eventRequestedMs)} ms, the map at ${n(f.mapRequestedMs)} ms, received at ${n(f.mapReceivedMs)} ms`
          : '') +
        (f.unthrottledMs ? `; not slowed ${n(f.unthrottledMs)} ms` : '') +
        (seatWeb.speed
          ? `; the page's CPU (Lighthouse's BenchmarkIndex) ${n(seatWeb.speed.hostIndex)} not slowed, ${n(seatWeb.speed.phoneIndex)} slowed (DevTools' calibration: mid-tier phone 1,000, low-tier 264)`
          : '') +
        (seatWeb.midTier
          ? `; as DevTools' mid-tier phone (CPU slowed ${seatWeb.midTier.rate}×, BenchmarkIndex ${n(seatWeb.midTier.index)}): all seats drawn ${n(seatWeb.midTier.allSeatsMedianMs)} ms (runs ${seatWeb.midTier.allSeatsMs.map(n).join(', ')})`
          : ''),
      '–',
      '–',
      '≤ 1,500 ms',
      yes(f.allSeatsMedianMs <= 1500),
    ])
    rows.push([
      `seating-web: that map while holds change seats (${c.seconds} s, 5 named seats a hold, each replacing the buyer's last)`,
      `long tasks ${Math.round(c.longTaskShare * 1000) / 10}% of the time (${c.longTasks}, longest ${c.longestTaskMs} ms, ${c.blockingMsPerSecond} ms blocking a second) ` +
        `at ${n(c.seatChangesPerSecond)} seat changes/s (${c.holdsPerSecond} holds/s, answers ${JSON.stringify(c.holdStatuses)}); ` +
        `the page's free seats after ${n(c.pageFree)}, the server's ${n(c.serverFree)}; the generator's CPU ${pct(c.generatorCpuShare)}`,
      '–',
      '–',
      '≤ 10% in long tasks at 500 seat changes/s',
      `${yes(c.longTaskShare <= 0.1)}${c.seatChangesPerSecond < 475 ? ` (at ${c.seatChangesPerSecond}/s only)` : ''}`,
    ])
    rows.push([
      `seating-web: a hold's push to ${p.clients} sockets watching the map's room (${p.holds} holds, ${p.gapMs} ms apart)`,
      `from the hold's reply: p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, max ${p.maxMs} ms (${n(p.deliveries)} deliveries, ${p.missing} missing); the generator's CPU ${pct(p.generatorCpuShare)}`,
      '–',
      '–',
      'p99 ≤ 1,000 ms',
      yes(p.p99Ms <= 1000 && p.missing === 0),
    ])
  }
  const profiled = r.holdProfile as HoldProfileResult | undefined
  if (profiled) {
    const w = profiled.plain
    const top = [...profiled.table].sort((a, b) => b.share - a.share).slice(0, 3)
    rows.push([
      `hold-profile: holds that replace the buyer's last (FULL), wrk, ${profiled.connections} connections`,
      `${n(w.holdsPerSecond)} holds/s, p99 ${w.p99Ms} ms, ${w.cpuPerHoldUs} µs of the server's CPU per hold, ${profiled.statements.perHold} statements per hold; ` +
        `most CPU: ${top.map((t) => `${t.part} ${Math.round(t.share * 100)}%`).join(', ')} (the section below)`,
      '–',
      '–',
      'report',
      '–',
    ])
  }
  const soak = r.soak as SoakResult | undefined
  /** the median RSS of the soak's windows ending after `from` s and at most `to` s */
  const rssMedian = (soak: SoakResult, from: number, to: number) =>
    median(soak.points.filter((p) => p.t > from && p.t <= to).map((p) => p.rssMb))
  if (soak) {
    const errors = Object.values(soak.errors).reduce((a, b) => a + b, 0)
    rows.push([
      `soak: ${Math.round(soak.seconds / 60)} min of mixed traffic at ${soak.rate} operations/s (70% of the mix's peak, ${soak.peakOpsPerSecond}), ${soak.sockets.toLocaleString('en')} live sockets ([plot](${soak.plot}))`,
      `RSS ${soak.rss.firstMinuteMb} MB after the first minute, at most ${soak.rss.maxAfterMb} MB after (${pct(soak.rss.growth)} growth); ` +
        // the level apart from the spikes of single windows (where collections fall): reported, not judged
        `the median window's RSS ${rssMedian(soak, 60, 120)} MB in the second minute and ${rssMedian(soak, soak.seconds - 60, soak.seconds)} MB in the last; ` +
        (soak.heap
          ? `of it V8's heap held ${soak.heap.heldFirstMinuteMb} MB then at most ${soak.heap.heldMaxAfterMb} MB, ` +
            `the live heap (least in use) ${soak.heap.liveFirstMinuteMb} MB in the first minute and ${soak.heap.liveLastMinuteMb} MB in the last; `
          : '') +
        `median window p99 ${soak.p99.middleMs} ms in the middle third, ${soak.p99.lastMs} ms in the last (${soak.p99.ratio}x); ` +
        `${errors} errors${
          errors > 0
            ? ` (${Object.entries(soak.errors)
                .map(([k, n]) => `${k}: ${n}`)
                .join(', ')})`
            : ''
        }, ${soak.socketDrops} sockets dropped, ${soak.operations.toLocaleString('en')} operations`,
      '–',
      '–',
      'RSS growth < 10% after the first minute, p99 steady (last third ≤ 1.25x the middle), no errors',
      `${yes(soak.verdict.rss)} / ${yes(soak.verdict.p99)} / ${yes(soak.verdict.errors)}`,
    ])
  }
  const invoices = r.invoices as InvoicesResult | undefined
  for (const s of invoices?.stores ?? []) {
    const store = s.store === 'postgres' ? 'PostgreSQL' : 'SQLite'
    const problems = invoices?.problems.filter((p) => p.startsWith(`${s.store},`)).length ?? 0
    rows.push([
      `invoices (${store}): ${n(invoices?.purchases ?? 0)} purchases at once across ${invoices?.organizers} organizers, each with a billing profile (a tax invoice per purchase)`,
      `${s.with.cpuMsPerPurchase.median} ms of the server's CPU per purchase, capture included, mails apart (${s.with.settledCpuMsPerPurchase.median} ms until quiet; the mails' passes and PDFs ${s.with.mailsCpuMsPerPurchase?.median ?? '–'} ms, ratio ${s.mailsRatio}; the server side ${s.serverRatio}); ` +
        `${s.with.purchasesPerSecond.median} purchases/s, p99 ${n(s.with.p99Ms.median)} ms; ${n(s.invoicesChecked)} invoices checked, ${problems} problems`,
      `without profiles (no tax, no invoice): ${s.without.cpuMsPerPurchase.median} ms (${s.without.settledCpuMsPerPurchase.median} until quiet; the mails ${s.without.mailsCpuMsPerPurchase?.median ?? '–'}); ` +
        `${s.without.purchasesPerSecond.median} purchases/s, p99 ${n(s.without.p99Ms.median)} ms`,
      `${s.ratio} (${s.settledRatio} until quiet)${s.pairedRatio ? `; pairs of rounds ${pairedText(s.pairedRatio)}` : ''}`,
      '≤ 1.10; numbers 1..n per organizer, one invoice per purchase',
      `${yes(s.ratio <= 1.1)} (until quiet ${yes(s.settledRatio <= 1.1)}${s.pairedRatio ? `; the pairs: ${pairedVerdict(s.pairedRatio, 1.1)}` : ''}); checks ${yes(problems === 0)}`,
    ])
  }
  const webhooks = r.webhooks as WebhooksResult | undefined
  if (webhooks) {
    const w = webhooks
    const d = w.deliveries
    const problems = w.problems.length
    rows.push([
      `webhooks: ${n(w.orders)} paid orders × ${w.endpoints} endpoints (SQLite, FULL), the sale ${n(w.roundPurchases)} purchases a round, ${w.concurrency} in flight`,
      `with webhooks ${w.with.purchasesPerSecond.median} purchases/s, ${w.with.cpuMsPerPurchase.median} ms of the server's CPU per purchase ` +
        `(${w.with.settledCpuMsPerPurchase.median} until delivered and quiet); ${n(d.arrived)} of ${n(d.expected)} deliveries, ` +
        `${d.duplicates} twice, ${d.outOfOrder} out of order; receiver down ${w.down.seconds} s: the last of ${n(w.down.owed)} owed ${w.down.recoveredSeconds} s after its return`,
      `without endpoints: ${w.without.purchasesPerSecond.median} purchases/s, ${w.without.cpuMsPerPurchase.median} ms (${w.without.settledCpuMsPerPurchase.median} until quiet)`,
      `${w.ratio} (CPU ${w.cpuRatio}, until quiet ${w.settledCpuRatio})`,
      'purchases/s ≥ 0.9; every delivery, once, in order per endpoint; all after the receiver returns',
      `${yes(w.ratio >= 0.9)}; checks ${yes(d.missing === 0 && d.duplicates === 0 && d.outOfOrder === 0)}; down ${yes(w.down.recoveredSeconds >= 0)}; ${problems} problems`,
    ])
  }
  const table = [
    '| bench | measured | same-run baseline | ratio | target | verdict |',
    '|---|---|---|---|---|---|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ].join('\n')
  return [
    '# Benchmark results',
    '',
    'Each bench was last run as below; a partial run (`--only`) measures its benches again and keeps the',
    "others' figures, each with its own run. Machines named alike are not the same machine: compare",
    'each figure with the baseline measured in its own run. Figures from different runs do not compare.',
    '',
    ...measuredTable(r),
    '',
    'Server pinned to core 0, load generator to the last core (taskset); medians of the rounds (min–max where',
    'given); durability FULL unless the row says NORMAL (SQLITE_SYNCHRONOUS). A baseline (hello world) runs in a',
    'fresh process under the same generator, connections, tokens and body as its subject, warmed up as long and',
    'measured as long; "generator CPU" is the load generator\'s CPU time over the run (near 100%, it set the',
    'pace, and the figure is a floor). Written by `npm run bench -- --record` (without it, a run writes',
    '`tests/bench/results/latest/`, which is not committed).',
    '',
    table,
    '',
    'See `docs/performance.md` for what the misses are made of, and `tests/bench/results/HISTORY.md` for how',
    'the figures moved.',
    '',
    ...saleStoresSection(r.saleStores as SaleStoresResult | undefined),
    ...pgClusterSection(r.pgCluster as PgClusterResult | undefined),
    ...holdProfileSection(r.holdProfile as HoldProfileResult | undefined),
    ...seatingSection(r.seating as SeatingResult | undefined),
    ...pagesSection(r.pages as PagesResult | undefined),
    ...invoicesSection(r.invoices as InvoicesResult | undefined),
    ...webhooksSection(r.webhooks as WebhooksResult | undefined),
    '## Changes made after profiling, before and after',
    '',
    'Measured with `npm run bench -- --only <bench>` (or the probe named) just before and just after each change,',
    'on the machine named after its commit: the date and the CPU, always 2 cores.',
    '',
    ...profiledChanges.map(
      (c) => `- **${c.change}** (${c.commit}; ${c.on}): ${c.before} → ${c.after}. ${c.why}`,
    ),
    '',
  ].join('\n')
}
