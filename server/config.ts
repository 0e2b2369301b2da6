// Environment → typed config, validated once at start. Every setting and its default lives here
// (and in .env.example); a bad value stops the app with a message naming the setting.
import { createHmac, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { BlockList, isIP } from 'node:net'
import { join, resolve } from 'node:path'
import * as v from 'valibot'
import { GST_STATES, gstinProblem } from '../contracts/billing.ts'
import { HEAP_GROWING_PERCENT } from './heap.ts'

const wholeNumber = (fallback: number, min = 0) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(min, `must be at least ${min}`),
    ),
    String(fallback),
  )

/** An address, a CIDR range, or one of proxy-addr's names, as Fastify's trustProxy takes them. */
function trustedProxyEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true
  const [address, prefix, ...rest] = entry.split('/')
  const family = isIP(address ?? '')
  if (!family || rest.length > 0) return false
  if (prefix === undefined) return true
  // a /0 range would trust everyone (and the address parser refuses it)
  return /^\d+$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128)
}

const DAY_MS = 86_400_000
const durationMs = (text: string) =>
  Number.parseInt(text, 10) *
  { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS }[text.slice(-1) as 's' | 'm' | 'h' | 'd']

/**
 * Addresses that reach the machine itself, whatever their spelling: a URL's host is already
 * normalized (2130706433, 0x7f.1, 0177.0.0.1 and 127.1 become 127.0.0.1; [0:0::1] becomes [::1]),
 * and the IPv4-mapped form ([::ffff:127.0.0.1]) is judged as the IPv4 address it carries.
 */
const loopback = new BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
// "this host": a connection to 0.0.0.0 (or 0) reaches the machine itself
loopback.addSubnet('0.0.0.0', 8, 'ipv4')
// ::1, :: and the old IPv4-compatible form (::127.0.0.1)
loopback.addSubnet('::', 96, 'ipv6')
/** names the usual hosts files give the machine itself (and *.localhost, RFC 6761) */
const LOOPBACK_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'localhost6',
  'localhost6.localdomain6',
  'ip6-localhost',
  'ip6-loopback',
])

/** A URL host (as URL gives it: lower case, IPv6 in brackets) that names the machine itself. */
export function isLoopbackHost(hostname: string): boolean {
  // a name with its trailing dot (localhost.) is the same name, fully qualified
  const host = hostname.replace(/\.+$/, '')
  if (LOOPBACK_NAMES.has(host) || host.endsWith('.localhost')) return true
  const address = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  const family = isIP(address)
  return family !== 0 && loopback.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

const isLocalOrigin = (origin: string) => {
  try {
    return isLoopbackHost(new URL(origin).hostname)
  } catch {
    return false
  }
}

/**
 * What a refusal shows of a setting: nothing of a secret (its length only), and a URL without its
 * password (postgres://user:secret@…, ?password=…).
 */
const SECRET_SETTINGS = new Set([
  'JWT_SECRET',
  'PASS_SIGNING_KEY',
  'RAZORPAY_KEY_SECRET',
  'RAZORPAY_WEBHOOK_SECRET',
  'ADMIN_PASSWORD',
])
const shownValue = (key: string, value: string | undefined) =>
  value !== undefined && SECRET_SETTINGS.has(key)
    ? `${value.length} characters, not shown`
    : JSON.stringify(withoutPassword(value))

/** fewer different characters than this in a secret: typed by hand, or a placeholder */
const MIN_DISTINCT_SECRET_CHARACTERS = 10
/**
 * The admin can do everything with a password alone: in production its password is at least as
 * long as NIST SP 800-63B (rev. 4) asks of a password that is the only factor, and not a few
 * characters repeated.
 */
export const ADMIN_PASSWORD_MIN_PRODUCTION = 15
const ADMIN_PASSWORD_MIN_DISTINCT = 6

/**
 * SQLite's page cache per connection, in MB, when SQLITE_CACHE_MB does not say (SQLite's own is 2).
 * The cache fills as pages are read or written and then stays full: memory the process takes over
 * its first minutes of traffic and keeps. 64 MB kept a 10-minute soak's server growing (+68 MB over
 * seven minutes while its file grew past it); with 16 it fills within the first minute and the
 * purchase bench's statements take ~6% longer in all (misses served by the system's file cache).
 */
export const SQLITE_CACHE_MB = 16

const switchSetting = (fallback: 'on' | 'off') =>
  v.optional(v.picklist(['on', 'off'], 'must be on or off'), fallback)

const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  HOST: v.optional(v.pipe(v.string(), v.minLength(1)), '0.0.0.0'),
  PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a port number'),
      v.transform(Number),
      v.maxValue(65535, 'must be a port number'),
    ),
    '3000',
  ),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
  DATABASE_POOL_SIZE: wholeNumber(10, 2),
  /** how far V8's old generation grows past what its last full collection kept (server/heap.ts) */
  HEAP_GROWING_PERCENT: v.pipe(wholeNumber(HEAP_GROWING_PERCENT, 10), v.maxValue(100, 'must be at most 100')),
  SQLITE_SYNCHRONOUS: v.optional(v.picklist(['FULL', 'NORMAL'], 'must be FULL or NORMAL'), 'FULL'),
  SQLITE_CACHE_MB: wholeNumber(SQLITE_CACHE_MB, 1),
  DATABASE_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^postgres(ql)?:\/\/./, 'must be a PostgreSQL URL, postgres://… or postgresql://…'),
      v.check((url) => URL.canParse(url), 'must be a PostgreSQL URL, postgres://… or postgresql://…'),
    ),
  ),
  // no default here: database when DATABASE_URL is set, disk otherwise (loadConfig)
  MEDIA_STORE: v.optional(v.picklist(['disk', 'database'], 'must be disk or database')),
  PUBLIC_URL: v.optional(v.pipe(v.string(), v.url('must be a URL such as http://localhost:3000'))),
  JWT_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  JWT_EXPIRES_IN: v.optional(
    v.pipe(v.string(), v.regex(/^\d+[smhd]$/, 'must be a duration such as 30m, 12h or 7d')),
    '1d',
  ),
  // 32 bytes in base64url (43 characters): the seed of the Ed25519 key that signs ticket passes
  PASS_SIGNING_KEY: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^[A-Za-z0-9_-]{43}$/, 'must be 32 random bytes in base64url (43 characters)'),
    ),
  ),
  // the door opens this many hours before an event starts: a scan before then admits no one
  CHECKIN_OPENS_HOURS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+$/, 'must be a whole number of hours'),
      v.transform(Number),
      v.maxValue(8760, 'must be at most 8760 (a year)'),
    ),
    '24',
  ),
  REDIS_URL: v.optional(
    v.union([v.literal('off'), v.pipe(v.string(), v.regex(/^rediss?:\/\//, 'must be redis://… or off'))]),
    'redis://127.0.0.1:6379',
  ),
  QUEUE_PREFIX: v.optional(
    v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]+$/, 'must be letters, digits, - or _')),
  ),
  WORKERS: v.optional(v.picklist(['inline', 'off'], 'must be inline or off'), 'inline'),
  SMTP_URL: v.optional(v.pipe(v.string(), v.regex(/^smtps?:\/\//, 'must be smtp://… or smtps://…'))),
  MAIL_FROM: v.optional(v.pipe(v.string(), v.minLength(3)), 'Event Management <no-reply@localhost>'),
  CORS_ORIGINS: v.optional(v.string(), ''),
  ADMIN_EMAIL: v.optional(
    v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email('must be an e-mail address')),
  ),
  ADMIN_PASSWORD: v.optional(v.pipe(v.string(), v.minLength(6, 'must be at least 6 characters'))),
  ADMIN_USERNAME: v.optional(v.pipe(v.string(), v.minLength(1)), 'admin'),
  RATE_LIMITS: switchSetting('on'),
  TRUST_PROXY: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check(
        (value) =>
          value === 'off' ||
          /^\d+$/.test(value) ||
          value.split(',').every((entry) => trustedProxyEntry(entry.trim())),
        'must be off, a number of proxy hops, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal',
      ),
    ),
    'off',
  ),
  LOGIN_FAILS_PER_ACCOUNT_ADDRESS: wholeNumber(10, 1),
  LOGIN_FAILS_PER_ACCOUNT: wholeNumber(100, 1),
  LOGIN_SLOW_SECONDS: wholeNumber(10, 1),
  LOGIN_FAILS_PER_IP: wholeNumber(100, 1),
  SIGNUPS_PER_ADDRESS: wholeNumber(20, 1),
  SIGNUP_WINDOW_MINUTES: wholeNumber(60, 1),
  LOGIN_WINDOW_MINUTES: wholeNumber(15, 1),
  FORGOT_PER_ACCOUNT: wholeNumber(3, 1),
  FORGOT_PER_IP: wholeNumber(30, 1),
  FORGOT_WINDOW_MINUTES: wholeNumber(60, 1),
  PROMO_GUESSES_PER_ACCOUNT: wholeNumber(20, 1),
  PROMO_GUESS_WINDOW_MINUTES: wholeNumber(10, 1),
  INQUIRIES_PER_HOUR: wholeNumber(20, 1),
  TRANSFERS_PER_HOUR: wholeNumber(30, 1),
  WAITLIST_CHANGES_PER_HOUR: wholeNumber(30, 1),
  QUEUE_JOINS_PER_HOUR: wholeNumber(30, 1),
  /** requests one API token may make a minute (issue 43) */
  TOKEN_REQUESTS_PER_MINUTE: wholeNumber(600, 1),
  /** webhooks (issue 43): sending to loopback and private addresses (for local testing only) */
  WEBHOOKS_ALLOW_PRIVATE: switchSetting('off'),
  WEBHOOK_RETRY_BASE_MS: wholeNumber(30_000, 1),
  WEBHOOK_GIVE_UP_HOURS: wholeNumber(72, 0),
  WEBHOOK_TICK_MS: wholeNumber(1000, 10),
  WEBHOOK_TIMEOUT_MS: wholeNumber(10_000, 100),
  DOOR_STAFF_CHANGES_PER_HOUR: wholeNumber(30, 1),
  CHECKOUTS_PER_EVENT_PER_HOUR: wholeNumber(30, 1),
  SEATMAP_SAVES_PER_HOUR: wholeNumber(30, 1),
  INTEGRATIONS_ADDED_PER_HOUR: wholeNumber(100, 1),
  WEBHOOK_RETRIES_PER_HOUR: wholeNumber(120, 1),
  SALE_ROOM_CHANGES_PER_HOUR: wholeNumber(120, 1),
  RESET_TOKEN_MINUTES: wholeNumber(30, 1),
  LEDGER_POLL_MS: wholeNumber(100, 10),
  UPLOAD_IMAGE_MAX_MB: wholeNumber(10, 1),
  UPLOAD_VIDEO_MAX_MB: wholeNumber(200, 1),
  UPLOAD_MAX_IMAGES: wholeNumber(10, 0),
  UPLOAD_MAX_VIDEOS: wholeNumber(10, 0),
  UPLOAD_REQUEST_MAX_MB: wholeNumber(500, 1),
  IMAGE_MAX_SIDE: wholeNumber(20_000, 1),
  IMAGE_MAX_MEGAPIXELS: wholeNumber(40, 1),
  BODY_TIMEOUT_SECONDS: wholeNumber(30, 1),
  UPLOAD_MIN_KB_PER_SECOND: wholeNumber(8, 1),
  LIVE_CONNECTIONS_PER_ADDRESS: wholeNumber(100, 1),
  /** what one client address may send the live socket in 10 s, over all its sockets and reconnections
   * (a handshake, a watch, an unwatch: one message each); RATE_LIMITS=off lifts it */
  LIVE_MESSAGES_PER_ADDRESS: wholeNumber(1000, 1),
  /** how often at most an event's dashboard row, check-in summary and seats on sale are pushed (the
   * latest, in ms; the seats' first count after a quiet spell goes at once) */
  LIVE_FIGURES_EVERY_MS: wholeNumber(200, 0),
  PAYMENT_PROVIDER: v.optional(v.picklist(['local', 'razorpay'], 'must be local or razorpay'), 'local'),
  ALLOW_TEST_PAYMENTS: switchSetting('off'),
  RAZORPAY_KEY_ID: v.optional(v.pipe(v.string(), v.minLength(1))),
  RAZORPAY_KEY_SECRET: v.optional(v.pipe(v.string(), v.minLength(8, 'must be at least 8 characters'))),
  RAZORPAY_WEBHOOK_SECRET: v.optional(v.pipe(v.string(), v.minLength(8, 'must be at least 8 characters'))),
  RAZORPAY_API_URL: v.optional(v.pipe(v.string(), v.url('must be a URL'))),
  HOLD_MINUTES: wholeNumber(10, 1),
  OFFER_MINUTES: wholeNumber(30, 1),
  ADMISSION_MINUTES: wholeNumber(10, 1),
  QUEUE_CHECKOUTS: wholeNumber(100, 1),
  QUEUE_TICK_MS: wholeNumber(1000, 0),
  /** the GST rates (percent) a ticket type may have, comma-separated */
  GST_RATES: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+(\.\d{1,2})?(\s*,\s*\d+(\.\d{1,2})?)*$/, 'must be percentages separated by commas'),
      v.transform((text) =>
        [...new Set(text.split(',').map((rate) => Number(rate.trim())))].sort((a, b) => a - b),
      ),
      v.check((rates) => rates.every((rate) => rate <= 100), 'must be percentages of at most 100'),
    ),
    '0,5,12,18,28,40',
  ),
  /** the documents a register reads from the database at a time, as it sends them */
  INVOICE_REGISTER_BATCH: wholeNumber(1_000, 1),
  /** the platform's booking fee on each order: rupees per ticket and a percent of the tickets' price */
  BOOKING_FEE_PER_TICKET: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+(\.\d{1,2})?$/, 'must be an amount of rupees'),
      v.transform(Number),
    ),
    '0',
  ),
  BOOKING_FEE_PERCENT: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+(\.\d{1,2})?$/, 'must be a percentage'),
      v.transform(Number),
      v.maxValue(100, 'must be at most 100'),
    ),
    '0',
  ),
  BOOKING_FEE_GST_RATE: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+(\.\d{1,2})?$/, 'must be a percentage'),
      v.transform(Number),
      v.maxValue(100, 'must be at most 100'),
    ),
    '18',
  ),
  /** who invoices the booking fee: the platform's own billing details */
  PLATFORM_LEGAL_NAME: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)), 'Ticketing platform'),
  PLATFORM_GSTIN: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toUpperCase(),
      v.check((gstin) => gstin === '' || gstinProblem(gstin) === null, 'must be a valid GSTIN'),
    ),
    '',
  ),
  PLATFORM_ADDRESS: v.optional(v.pipe(v.string(), v.trim()), ''),
  PLATFORM_STATE: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check((code) => GST_STATES[code] !== undefined, 'must be a two-digit GST state code'),
    ),
    '27',
  ),
  PLATFORM_INVOICE_PREFIX: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toUpperCase(),
      v.regex(/^[A-Z0-9]{1,5}$/, 'must be 1 to 5 letters or digits'),
    ),
    'FEE',
  ),
  MAX_TICKETS_PER_ORDER: wholeNumber(10, 1),
  MAX_TICKETS_PER_ACCOUNT: wholeNumber(10, 1),
  MAX_HELD_SEATS_PER_ADDRESS: wholeNumber(20, 1),
  CANCEL_CUTOFF_HOURS: wholeNumber(24, 0),
  PAYMENT_WAIT_SECONDS: wholeNumber(15, 1),
  TIMEZONE: v.optional(
    v.pipe(
      v.string(),
      v.check((zone) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: zone })
          return true
        } catch {
          return false
        }
      }, 'must be an IANA time zone such as Asia/Kolkata'),
    ),
    'Asia/Kolkata',
  ),
  LOG_LEVEL: v.optional(
    v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'must be a pino level'),
    'info',
  ),
  // auto: readable lines in development on a terminal, JSON otherwise; pretty or json: always that
  LOG_FORMAT: v.optional(v.picklist(['auto', 'pretty', 'json'], 'must be auto, pretty or json'), 'auto'),
})

export type Env = v.InferOutput<typeof EnvSchema>

export type Config = {
  env: Env['NODE_ENV']
  host: string
  port: number
  dataDir: string
  databaseFile: string
  databasePoolSize: number
  /** V8's --heap-growing-percent for this process (server/heap.ts) */
  heapGrowingPercent: number
  uploadsDir: string
  outboxDir: string
  webDist: string
  sqliteSynchronous: 'FULL' | 'NORMAL'
  /** SQLite's page cache, per connection (MB): what the process keeps of the file in its own memory */
  sqliteCacheMb: number
  /** PostgreSQL (DATABASE_URL) for the ledger, every read model and (MEDIA_STORE=database) the
   * media, for several processes on several machines; null: SQLite in databaseFile */
  databaseUrl: string | null
  /** where uploaded media are kept: DATA_DIR/uploads (disk) or PostgreSQL's media table (database) */
  mediaStore: 'disk' | 'database'
  publicUrl: string
  jwt: { secret: string; expiresIn: string }
  /** the seed of the key that signs ticket passes (base64url); null: derived from jwt.secret */
  passSigningKey: string | null
  /** scans of an event's passes are answered too-early until this many hours before it starts */
  checkinOpensHours: number
  redisUrl: string | null
  /** the start of every Redis key (queues, rate limits, the live channel's adapter and counts):
   * QUEUE_PREFIX, else this deployment's own, derived from JWT_SECRET (deploymentPrefix) */
  queuePrefix: string
  /** QUEUE_PREFIX was given (else withJwtSecret derives the prefix from the secret it settles on) */
  queuePrefixSet: boolean
  workers: 'inline' | 'off'
  mail: { smtpUrl: string | null; from: string }
  corsOrigins: string[]
  /** Fastify's trustProxy: whose X-Forwarded-For is believed (false: nobody's) */
  trustProxy: false | number | string
  admin: { email: string; password: string; username: string } | null
  rateLimits: {
    enabled: boolean
    /** failures of one account from one address before that pair is refused */
    loginFailsPerAccountAddress: number
    /** failures of one account from everywhere before its sign-ins are slowed (never locked) */
    loginFailsPerAccount: number
    /** once slowed, one attempt at the account per this many seconds */
    loginSlowSeconds: number
    loginFailsPerIp: number
    signupsPerAddress: number
    signupWindowMinutes: number
    loginWindowMinutes: number
    forgotPerAccount: number
    forgotPerIp: number
    forgotWindowMinutes: number
    /** promo codes an account may try that do not exist, per window, before it is refused (issue 17) */
    promoGuessesPerAccount: number
    promoGuessWindowMinutes: number
    /** what one account may do per hour: inquiries sent, tickets transferred, waiting lists
     * joined or left (each is a fact, a mail or a read for others; a loop of them is abuse) */
    inquiriesPerHour: number
    transfersPerHour: number
    waitlistChangesPerHour: number
    /** lines of waiting rooms one account joins an hour (issue 41) */
    /** requests one API token may make a minute (issue 43) */
    tokenRequestsPerMinute: number
    queueJoinsPerHour: number
    /** invitations to door staff sent (each a mail) and door staff removed, per organizer */
    doorStaffChangesPerHour: number
    /** checkouts one account may start for one event per hour: each is an order at the payment
     * provider (a checkout replaced a thousand times was a thousand of them) */
    checkoutsPerEventPerHour: number
    /** seat maps one organizer saves an hour: each is a fact with the whole plan (up to 100,000
     * seats) on its event's stream, which every later decision on the event reads */
    seatMapSavesPerHour: number
    /** API tokens one account makes and webhook endpoints one organizer adds an hour: each is a fact
     * of the account's stream, which the next one's count reads (revoking or removing is never refused) */
    integrationsAddedPerHour: number
    /** webhook deliveries one organizer asks for again an hour: each is a request to the endpoint */
    redeliveriesPerHour: number
    /** sale times set, waiting rooms paused and resumed, by one organizer an hour: each is told at
     * once to everyone in the room's line */
    saleRoomChangesPerHour: number
  }
  resetTokenMinutes: number
  ledgerPollMs: number
  uploads: {
    imageMaxBytes: number
    videoMaxBytes: number
    maxImages: number
    maxVideos: number
    requestMaxBytes: number
    imageMaxSide: number
    imageMaxPixels: number
    /** an upload slower than this (after a grace period) is cut off */
    minBytesPerSecond: number
  }
  /** a request body (other than an upload) must arrive whole within this time */
  bodyTimeoutMs: number
  live: {
    connectionsPerAddress: number
    /** messages (handshakes among them) per address and 10 s window, on each process */
    messagesPerAddress: number
    roomsPerSocket: number
    figuresEveryMs: number
  }
  payments: {
    provider: 'local' | 'razorpay'
    /** the local gateway in production, allowed by ALLOW_TEST_PAYMENTS=on: a banner says so */
    testMode: boolean
    keyId: string
    keySecret: string
    webhookSecret: string
    apiUrl: string | null
  }
  booking: {
    holdMinutes: number
    /** how long seats offered to a waiting list's entry are held for that person (issue 17) */
    offerMinutes: number
    /** waiting rooms (issue 41): how long an admission lasts; without a set rate, the checkouts in
     * progress admissions keep up to; how often each process moves the rooms on (0: never) */
    admissionMinutes: number
    queueCheckouts: number
    queueTickMs: number
    maxTicketsPerOrder: number
    /** free events: tickets one account may hold per event */
    maxTicketsPerAccount: number
    /** unpaid seats held per client address per event */
    maxHeldSeatsPerAddress: number
    /** cancelling (with its refund) closes this many hours before the event starts */
    cancelCutoffHours: number
    /** how long handlePaymentSuccess waits for the ticket before answering 202 */
    paymentWaitSeconds: number
  }
  /** webhooks (issue 43): private destinations allowed (never in production), retries, the tick */
  webhooks: {
    allowPrivate: boolean
    retryBaseMs: number
    giveUpHours: number
    tickMs: number
    timeoutMs: number
  }
  /** taxes and invoices (issue 42) */
  billing: {
    /** the GST rates a ticket type may have, in percent, ascending */
    gstRates: number[]
    /** the documents GET /organizer/invoices or /admin/invoices reads at a time, as it sends them */
    registerBatch: number
    /** the platform's booking fee (none when both parts are 0) and its GST rate */
    fee: { perTicketPaise: number; percent: number; ratePercent: number } | null
    /** BOOKING_FEE_GST_RATE, a fee or none: where the admins' form starts */
    feeRatePercent: number
    /** the platform as the supplier of the fee, on the fee's invoices */
    platform: {
      legalName: string
      gstin: string | null
      address: string
      state: string
      invoicePrefix: string
    }
  }
  /** the zone in which "today" is judged (an event's date may not be in the past) */
  timeZone: string
  logLevel: Env['LOG_LEVEL']
  logFormat: Env['LOG_FORMAT']
}

/** A setting's value as a message or a log shows it: a URL's password (postgres://user:secret@…,
 * ?password=…) left out. */
export const withoutPassword = (value: string | undefined) =>
  value
    ?.replace(/(\/\/[^/:@]*):[^/@]*@/, '$1:***@')
    .replace(/([?&](?:password|pass|pwd|secret|token)=)[^&#]*/gi, '$1***')

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

/** Reads settings from an environment (process.env by default); empty strings count as unset. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(EnvSchema.entries)
      .map((key) => [key, source[key]?.trim() === '' ? undefined : source[key]])
      .filter(([, value]) => value !== undefined),
  )
  const parsed = v.safeParse(EnvSchema, present)
  if (!parsed.success) {
    throw new ConfigError(
      parsed.issues.map((issue) => {
        const key = v.getDotPath(issue) ?? 'setting'
        return `${key}: ${issue.message} (got ${shownValue(key, present[key])})`
      }),
    )
  }
  const env = parsed.output
  if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError(['ADMIN_EMAIL and ADMIN_PASSWORD: set both or neither'])
  }
  if (env.PAYMENT_PROVIDER === 'razorpay') {
    const missing = (['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'] as const).filter(
      (k) => !env[k],
    )
    if (missing.length)
      throw new ConfigError(missing.map((k) => `${k}: required when PAYMENT_PROVIDER is razorpay`))
  }
  const mediaStore = env.MEDIA_STORE ?? (env.DATABASE_URL ? 'database' : 'disk')
  if (mediaStore === 'database' && !env.DATABASE_URL) {
    throw new ConfigError([
      'MEDIA_STORE: database keeps media in PostgreSQL and needs DATABASE_URL (postgres://…); ' +
        'set DATABASE_URL, or MEDIA_STORE=disk to keep them in DATA_DIR/uploads',
    ])
  }
  const production = env.NODE_ENV === 'production'
  if (env.DATABASE_URL && !env.JWT_SECRET) {
    // One generated into DATA_DIR would differ between machines: a token signed by one process
    // would be refused by the next.
    throw new ConfigError([
      'JWT_SECRET: required with DATABASE_URL (every process that shares the database must sign and check sign-ins with the same secret; at least 32 random characters)',
    ])
  }
  const extraOrigins = env.CORS_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter(Boolean)
  if (production) {
    // What is merely convenient in development is unsafe with real money and real accounts.
    const unsafe: string[] = []
    if (env.PAYMENT_PROVIDER === 'local' && env.ALLOW_TEST_PAYMENTS !== 'on') {
      unsafe.push(
        'PAYMENT_PROVIDER: the built-in test gateway (local, the default) takes no money, so anyone could get paid tickets for free. ' +
          'Set PAYMENT_PROVIDER=razorpay with RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET ' +
          '(or, for a test sale only, ALLOW_TEST_PAYMENTS=on)',
      )
    }
    if (!env.JWT_SECRET) unsafe.push('JWT_SECRET: required in production (at least 32 random characters)')
    else if (new Set(env.JWT_SECRET).size < MIN_DISTINCT_SECRET_CHARACTERS) {
      unsafe.push(
        `JWT_SECRET: too easy to guess (fewer than ${MIN_DISTINCT_SECRET_CHARACTERS} different characters); use 32 or more random characters, e.g. node -e "console.log(crypto.randomBytes(32).toString('base64url'))"`,
      )
    }
    // Whoever knows these can sign a payment as the gateway would, or call it as the shop: a few
    // characters repeated is a placeholder, not a secret (they are checked whenever set: the local
    // gateway of a test sale takes them too).
    if (env.RAZORPAY_KEY_SECRET && new Set(env.RAZORPAY_KEY_SECRET).size < MIN_DISTINCT_SECRET_CHARACTERS) {
      unsafe.push(
        `RAZORPAY_KEY_SECRET: too easy to guess (fewer than ${MIN_DISTINCT_SECRET_CHARACTERS} different characters); use the key secret Razorpay's dashboard gives with the key id`,
      )
    }
    if (
      env.RAZORPAY_WEBHOOK_SECRET &&
      new Set(env.RAZORPAY_WEBHOOK_SECRET).size < MIN_DISTINCT_SECRET_CHARACTERS
    ) {
      unsafe.push(
        `RAZORPAY_WEBHOOK_SECRET: too easy to guess (fewer than ${MIN_DISTINCT_SECRET_CHARACTERS} different characters); use 32 or more random characters, set the same in Razorpay's webhook settings`,
      )
    }
    if (env.ADMIN_PASSWORD !== undefined) {
      if (env.ADMIN_PASSWORD.length < ADMIN_PASSWORD_MIN_PRODUCTION) {
        unsafe.push(
          `ADMIN_PASSWORD: must be at least ${ADMIN_PASSWORD_MIN_PRODUCTION} characters in production (the admin can do everything with it alone); a few words make a passphrase that long`,
        )
      } else if (new Set(env.ADMIN_PASSWORD).size < ADMIN_PASSWORD_MIN_DISTINCT) {
        unsafe.push(
          `ADMIN_PASSWORD: too easy to guess (fewer than ${ADMIN_PASSWORD_MIN_DISTINCT} different characters)`,
        )
      }
    }
    if (!env.PUBLIC_URL) {
      unsafe.push(
        'PUBLIC_URL: required in production (the address people reach the app at, e.g. https://tickets.example.com)',
      )
    } else if (
      env.ALLOW_TEST_PAYMENTS !== 'on' &&
      (!env.PUBLIC_URL.startsWith('https://') || isLocalOrigin(new URL(env.PUBLIC_URL).origin))
    ) {
      // sign-ins and passwords would travel in clear, and every mailed link would point there
      unsafe.push(
        `PUBLIC_URL: must be the https:// address people reach the app at in production, not ${withoutPassword(env.PUBLIC_URL)} (a test sale with ALLOW_TEST_PAYMENTS=on may use another)`,
      )
    }
    if (env.RATE_LIMITS === 'off') unsafe.push('RATE_LIMITS: off is refused in production')
    if (env.WEBHOOKS_ALLOW_PRIVATE === 'on')
      unsafe.push('WEBHOOKS_ALLOW_PRIVATE: on is refused in production (webhooks into private networks)')
    if (durationMs(env.JWT_EXPIRES_IN) > 30 * DAY_MS) {
      unsafe.push('JWT_EXPIRES_IN: at most 30d in production')
    }
    if (extraOrigins.some((origin) => origin.includes('*'))) {
      unsafe.push(
        'CORS_ORIGINS: * would let any site act for its visitors with their sign-in; list the origins allowed',
      )
    }
    // Every origin listed may act for a signed-in visitor: it must be a site's own https origin.
    const listed = extraOrigins.filter((origin) => !origin.includes('*'))
    const shown = (origins: string[]) => origins.map((origin) => withoutPassword(origin)).join(', ')
    if (listed.some((origin) => origin.toLowerCase() === 'null')) {
      unsafe.push(
        'CORS_ORIGINS: null is the origin of sandboxed frames, local files and redirects, which any page can take on; list the origins allowed',
      )
    }
    const origins = listed.filter((origin) => origin.toLowerCase() !== 'null')
    const local = origins.filter(isLocalOrigin)
    if (local.length)
      unsafe.push(`CORS_ORIGINS: localhost origins are for development only (${shown(local)})`)
    const others = origins.filter((origin) => !local.includes(origin))
    const notOrigins = others.filter((origin) => !URL.canParse(origin) || new URL(origin).origin !== origin)
    if (notOrigins.length) {
      unsafe.push(
        `CORS_ORIGINS: each entry is an origin, scheme, host and port only, such as https://partner.example (${shown(notOrigins)})`,
      )
    }
    const plain = others.filter((origin) => !notOrigins.includes(origin) && !origin.startsWith('https://'))
    if (plain.length) {
      unsafe.push(
        `CORS_ORIGINS: only https:// origins in production (a page sent over plain http can be changed on its way, and would act with its visitors' sign-in) (${shown(plain)})`,
      )
    }
    if (unsafe.length) throw new ConfigError(unsafe)
  }
  const dataDir = resolve(env.DATA_DIR)
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '')
  // The local gateway's keys: fixed and public in development (checkout works with nothing set);
  // in production (a test sale) derived from JWT_SECRET, so no known secret ever signs a payment.
  const derived = (purpose: string) =>
    production && env.JWT_SECRET
      ? createHmac('sha256', env.JWT_SECRET).update(`local-gateway ${purpose}`).digest('base64url')
      : null
  const trustProxy =
    env.TRUST_PROXY === 'off'
      ? false
      : /^\d+$/.test(env.TRUST_PROXY)
        ? Number(env.TRUST_PROXY)
        : env.TRUST_PROXY
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    dataDir,
    databaseFile: join(dataDir, 'ticketing.sqlite'),
    databasePoolSize: env.DATABASE_POOL_SIZE,
    heapGrowingPercent: env.HEAP_GROWING_PERCENT,
    uploadsDir: join(dataDir, 'uploads'),
    outboxDir: join(dataDir, 'outbox'),
    webDist: resolve(import.meta.dirname, '../web/dist'),
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
    sqliteCacheMb: env.SQLITE_CACHE_MB,
    databaseUrl: env.DATABASE_URL ?? null,
    mediaStore,
    publicUrl,
    jwt: { secret: env.JWT_SECRET ?? '', expiresIn: env.JWT_EXPIRES_IN },
    passSigningKey: env.PASS_SIGNING_KEY ?? null,
    checkinOpensHours: env.CHECKIN_OPENS_HOURS,
    redisUrl: env.REDIS_URL === 'off' ? null : env.REDIS_URL,
    queuePrefix: env.QUEUE_PREFIX ?? (env.JWT_SECRET ? deploymentPrefix(env.JWT_SECRET) : 'ticketing'),
    queuePrefixSet: env.QUEUE_PREFIX !== undefined,
    workers: env.WORKERS,
    mail: { smtpUrl: env.SMTP_URL ?? null, from: env.MAIL_FROM },
    // The Vite dev server is an origin of its own, in development only.
    corsOrigins: [
      ...new Set([
        publicUrl,
        ...(env.NODE_ENV === 'development' ? ['http://localhost:5173'] : []),
        ...extraOrigins,
      ]),
    ],
    trustProxy,
    admin:
      env.ADMIN_EMAIL && env.ADMIN_PASSWORD
        ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD, username: env.ADMIN_USERNAME }
        : null,
    rateLimits: {
      enabled: env.RATE_LIMITS === 'on',
      loginFailsPerAccountAddress: env.LOGIN_FAILS_PER_ACCOUNT_ADDRESS,
      loginFailsPerAccount: env.LOGIN_FAILS_PER_ACCOUNT,
      loginSlowSeconds: env.LOGIN_SLOW_SECONDS,
      loginFailsPerIp: env.LOGIN_FAILS_PER_IP,
      signupsPerAddress: env.SIGNUPS_PER_ADDRESS,
      signupWindowMinutes: env.SIGNUP_WINDOW_MINUTES,
      loginWindowMinutes: env.LOGIN_WINDOW_MINUTES,
      forgotPerAccount: env.FORGOT_PER_ACCOUNT,
      forgotPerIp: env.FORGOT_PER_IP,
      forgotWindowMinutes: env.FORGOT_WINDOW_MINUTES,
      promoGuessesPerAccount: env.PROMO_GUESSES_PER_ACCOUNT,
      promoGuessWindowMinutes: env.PROMO_GUESS_WINDOW_MINUTES,
      inquiriesPerHour: env.INQUIRIES_PER_HOUR,
      transfersPerHour: env.TRANSFERS_PER_HOUR,
      waitlistChangesPerHour: env.WAITLIST_CHANGES_PER_HOUR,
      queueJoinsPerHour: env.QUEUE_JOINS_PER_HOUR,
      tokenRequestsPerMinute: env.TOKEN_REQUESTS_PER_MINUTE,
      doorStaffChangesPerHour: env.DOOR_STAFF_CHANGES_PER_HOUR,
      checkoutsPerEventPerHour: env.CHECKOUTS_PER_EVENT_PER_HOUR,
      seatMapSavesPerHour: env.SEATMAP_SAVES_PER_HOUR,
      integrationsAddedPerHour: env.INTEGRATIONS_ADDED_PER_HOUR,
      redeliveriesPerHour: env.WEBHOOK_RETRIES_PER_HOUR,
      saleRoomChangesPerHour: env.SALE_ROOM_CHANGES_PER_HOUR,
    },
    resetTokenMinutes: env.RESET_TOKEN_MINUTES,
    ledgerPollMs: env.LEDGER_POLL_MS,
    uploads: {
      imageMaxBytes: env.UPLOAD_IMAGE_MAX_MB * 1024 * 1024,
      videoMaxBytes: env.UPLOAD_VIDEO_MAX_MB * 1024 * 1024,
      maxImages: env.UPLOAD_MAX_IMAGES,
      maxVideos: env.UPLOAD_MAX_VIDEOS,
      requestMaxBytes: env.UPLOAD_REQUEST_MAX_MB * 1024 * 1024,
      imageMaxSide: env.IMAGE_MAX_SIDE,
      imageMaxPixels: env.IMAGE_MAX_MEGAPIXELS * 1_000_000,
      minBytesPerSecond: env.UPLOAD_MIN_KB_PER_SECOND * 1024,
    },
    bodyTimeoutMs: env.BODY_TIMEOUT_SECONDS * 1000,
    live: {
      connectionsPerAddress: env.LIVE_CONNECTIONS_PER_ADDRESS,
      messagesPerAddress: env.LIVE_MESSAGES_PER_ADDRESS,
      roomsPerSocket: 20,
      figuresEveryMs: env.LIVE_FIGURES_EVERY_MS,
    },
    payments: {
      provider: env.PAYMENT_PROVIDER,
      testMode: production && env.PAYMENT_PROVIDER === 'local',
      keyId: env.RAZORPAY_KEY_ID ?? 'rzp_test_local',
      keySecret: env.RAZORPAY_KEY_SECRET ?? derived('key') ?? 'local-development-key-secret',
      webhookSecret: env.RAZORPAY_WEBHOOK_SECRET ?? derived('webhook') ?? 'local-development-webhook-secret',
      apiUrl: env.RAZORPAY_API_URL ?? null,
    },
    booking: {
      holdMinutes: env.HOLD_MINUTES,
      offerMinutes: env.OFFER_MINUTES,
      admissionMinutes: env.ADMISSION_MINUTES,
      queueCheckouts: env.QUEUE_CHECKOUTS,
      queueTickMs: env.QUEUE_TICK_MS,
      maxTicketsPerOrder: env.MAX_TICKETS_PER_ORDER,
      maxTicketsPerAccount: env.MAX_TICKETS_PER_ACCOUNT,
      maxHeldSeatsPerAddress: env.MAX_HELD_SEATS_PER_ADDRESS,
      cancelCutoffHours: env.CANCEL_CUTOFF_HOURS,
      paymentWaitSeconds: env.PAYMENT_WAIT_SECONDS,
    },
    webhooks: {
      allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === 'on',
      retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
      giveUpHours: env.WEBHOOK_GIVE_UP_HOURS,
      tickMs: env.WEBHOOK_TICK_MS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    },
    billing: {
      gstRates: env.GST_RATES,
      registerBatch: env.INVOICE_REGISTER_BATCH,
      fee:
        env.BOOKING_FEE_PER_TICKET > 0 || env.BOOKING_FEE_PERCENT > 0
          ? {
              perTicketPaise: Math.round(env.BOOKING_FEE_PER_TICKET * 100),
              percent: env.BOOKING_FEE_PERCENT,
              ratePercent: env.BOOKING_FEE_GST_RATE,
            }
          : null,
      feeRatePercent: env.BOOKING_FEE_GST_RATE,
      platform: {
        legalName: env.PLATFORM_LEGAL_NAME,
        gstin: env.PLATFORM_GSTIN || null,
        address: env.PLATFORM_ADDRESS,
        state: env.PLATFORM_STATE,
        invoicePrefix: env.PLATFORM_INVOICE_PREFIX,
      },
    },
    timeZone: env.TIMEZONE,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
  }
}

/** JWT_SECRET from the environment, else one generated on first start and kept in the data folder. */
export function withJwtSecret(config: Config): Config {
  if (config.jwt.secret) return config
  mkdirSync(config.dataDir, { recursive: true })
  const file = join(config.dataDir, 'jwt-secret')
  let secret: string
  try {
    secret = readFileSync(file, 'utf8').trim()
  } catch {
    try {
      writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' })
    } catch (error) {
      // Another process started at the same moment and wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    secret = readFileSync(file, 'utf8').trim()
  }
  return {
    ...config,
    jwt: { ...config.jwt, secret },
    ...(config.queuePrefixSet ? {} : { queuePrefix: deploymentPrefix(secret) }),
  }
}

/**
 * The Redis prefix of a deployment that sets no QUEUE_PREFIX: every process of one deployment shares
 * JWT_SECRET (or the one generated in the shared data folder), and two deployments never do, so two
 * deployments on one Redis (staging and production, two local copies) never take each other's jobs:
 * one's worker would send the other's ticket mails, passes and reset links, or ask its own provider
 * about the other's payments. A keyed hash: the key names show nothing of the secret.
 */
export const deploymentPrefix = (jwtSecret: string) =>
  `ticketing-${createHmac('sha256', jwtSecret).update('queue prefix').digest('hex').slice(0, 12)}`
