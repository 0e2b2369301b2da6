// Environment → typed config, validated once at start. Every setting and its default lives here
// (and in .env.example); a bad value stops the app with a message naming the setting.
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import * as v from 'valibot'

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
  SQLITE_SYNCHRONOUS: v.optional(v.picklist(['FULL', 'NORMAL'], 'must be FULL or NORMAL'), 'FULL'),
  PUBLIC_URL: v.optional(v.pipe(v.string(), v.url('must be a URL such as http://localhost:3000'))),
  JWT_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  JWT_EXPIRES_IN: v.optional(
    v.pipe(v.string(), v.regex(/^\d+[smhd]$/, 'must be a duration such as 30m, 12h or 7d')),
    '1d',
  ),
  REDIS_URL: v.optional(
    v.union([v.literal('off'), v.pipe(v.string(), v.regex(/^rediss?:\/\//, 'must be redis://… or off'))]),
    'redis://127.0.0.1:6379',
  ),
  QUEUE_PREFIX: v.optional(
    v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]+$/, 'must be letters, digits, - or _')),
    'ticketing',
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
  LOGIN_FAILS_PER_ACCOUNT: wholeNumber(5, 1),
  LOGIN_FAILS_PER_IP: wholeNumber(100, 1),
  LOGIN_WINDOW_MINUTES: wholeNumber(15, 1),
  FORGOT_PER_ACCOUNT: wholeNumber(3, 1),
  FORGOT_PER_IP: wholeNumber(30, 1),
  FORGOT_WINDOW_MINUTES: wholeNumber(60, 1),
  RESET_TOKEN_MINUTES: wholeNumber(30, 1),
  LEDGER_POLL_MS: wholeNumber(100, 10),
  UPLOAD_IMAGE_MAX_MB: wholeNumber(10, 1),
  UPLOAD_VIDEO_MAX_MB: wholeNumber(200, 1),
  UPLOAD_MAX_IMAGES: wholeNumber(10, 0),
  UPLOAD_MAX_VIDEOS: wholeNumber(10, 0),
  UPLOAD_REQUEST_MAX_MB: wholeNumber(500, 1),
  PAYMENT_PROVIDER: v.optional(v.picklist(['local', 'razorpay'], 'must be local or razorpay'), 'local'),
  RAZORPAY_KEY_ID: v.optional(v.pipe(v.string(), v.minLength(1))),
  RAZORPAY_KEY_SECRET: v.optional(v.pipe(v.string(), v.minLength(8, 'must be at least 8 characters'))),
  RAZORPAY_WEBHOOK_SECRET: v.optional(v.pipe(v.string(), v.minLength(8, 'must be at least 8 characters'))),
  RAZORPAY_API_URL: v.optional(v.pipe(v.string(), v.url('must be a URL'))),
  HOLD_MINUTES: wholeNumber(10, 1),
  MAX_TICKETS_PER_ORDER: wholeNumber(10, 1),
  PAYMENT_WAIT_SECONDS: wholeNumber(15, 1),
  INVENTORY_GUARD: switchSetting('on'),
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
})

export type Env = v.InferOutput<typeof EnvSchema>

export type Config = {
  env: Env['NODE_ENV']
  host: string
  port: number
  dataDir: string
  databaseFile: string
  uploadsDir: string
  outboxDir: string
  webDist: string
  sqliteSynchronous: 'FULL' | 'NORMAL'
  publicUrl: string
  jwt: { secret: string; expiresIn: string }
  redisUrl: string | null
  queuePrefix: string
  workers: 'inline' | 'off'
  mail: { smtpUrl: string | null; from: string }
  corsOrigins: string[]
  admin: { email: string; password: string; username: string } | null
  rateLimits: {
    enabled: boolean
    loginFailsPerAccount: number
    loginFailsPerIp: number
    loginWindowMinutes: number
    forgotPerAccount: number
    forgotPerIp: number
    forgotWindowMinutes: number
  }
  resetTokenMinutes: number
  ledgerPollMs: number
  uploads: {
    imageMaxBytes: number
    videoMaxBytes: number
    maxImages: number
    maxVideos: number
    requestMaxBytes: number
  }
  payments: {
    provider: 'local' | 'razorpay'
    keyId: string
    keySecret: string
    webhookSecret: string
    apiUrl: string | null
  }
  booking: {
    holdMinutes: number
    maxTicketsPerOrder: number
    /** how long handlePaymentSuccess waits for the ticket before answering 202 */
    paymentWaitSeconds: number
    /** off only in tests: the control run that shows the race the guard prevents */
    inventoryGuard: boolean
  }
  /** the zone in which "today" is judged (an event's date may not be in the past) */
  timeZone: string
  logLevel: Env['LOG_LEVEL']
}

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
        return `${key}: ${issue.message} (got ${JSON.stringify(present[key])})`
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
  if (env.INVENTORY_GUARD === 'off' && env.NODE_ENV !== 'test') {
    throw new ConfigError(['INVENTORY_GUARD: off is only for tests (NODE_ENV=test); it allows overselling'])
  }
  const dataDir = resolve(env.DATA_DIR)
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '')
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    dataDir,
    databaseFile: join(dataDir, 'ticketing.sqlite'),
    uploadsDir: join(dataDir, 'uploads'),
    outboxDir: join(dataDir, 'outbox'),
    webDist: resolve(import.meta.dirname, '../web/dist'),
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
    publicUrl,
    jwt: { secret: env.JWT_SECRET ?? '', expiresIn: env.JWT_EXPIRES_IN },
    redisUrl: env.REDIS_URL === 'off' ? null : env.REDIS_URL,
    queuePrefix: env.QUEUE_PREFIX,
    workers: env.WORKERS,
    mail: { smtpUrl: env.SMTP_URL ?? null, from: env.MAIL_FROM },
    corsOrigins: [
      ...new Set(
        [publicUrl, 'http://localhost:5173', ...env.CORS_ORIGINS.split(',')]
          .map((o) => o.trim())
          .filter(Boolean),
      ),
    ],
    admin:
      env.ADMIN_EMAIL && env.ADMIN_PASSWORD
        ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD, username: env.ADMIN_USERNAME }
        : null,
    rateLimits: {
      enabled: env.RATE_LIMITS === 'on',
      loginFailsPerAccount: env.LOGIN_FAILS_PER_ACCOUNT,
      loginFailsPerIp: env.LOGIN_FAILS_PER_IP,
      loginWindowMinutes: env.LOGIN_WINDOW_MINUTES,
      forgotPerAccount: env.FORGOT_PER_ACCOUNT,
      forgotPerIp: env.FORGOT_PER_IP,
      forgotWindowMinutes: env.FORGOT_WINDOW_MINUTES,
    },
    resetTokenMinutes: env.RESET_TOKEN_MINUTES,
    ledgerPollMs: env.LEDGER_POLL_MS,
    uploads: {
      imageMaxBytes: env.UPLOAD_IMAGE_MAX_MB * 1024 * 1024,
      videoMaxBytes: env.UPLOAD_VIDEO_MAX_MB * 1024 * 1024,
      maxImages: env.UPLOAD_MAX_IMAGES,
      maxVideos: env.UPLOAD_MAX_VIDEOS,
      requestMaxBytes: env.UPLOAD_REQUEST_MAX_MB * 1024 * 1024,
    },
    payments: {
      provider: env.PAYMENT_PROVIDER,
      // Fixed development keys for the local gateway, so checkout works with nothing configured.
      keyId: env.RAZORPAY_KEY_ID ?? 'rzp_test_local',
      keySecret: env.RAZORPAY_KEY_SECRET ?? 'local-development-key-secret',
      webhookSecret: env.RAZORPAY_WEBHOOK_SECRET ?? 'local-development-webhook-secret',
      apiUrl: env.RAZORPAY_API_URL ?? null,
    },
    booking: {
      holdMinutes: env.HOLD_MINUTES,
      maxTicketsPerOrder: env.MAX_TICKETS_PER_ORDER,
      paymentWaitSeconds: env.PAYMENT_WAIT_SECONDS,
      inventoryGuard: env.INVENTORY_GUARD === 'on',
    },
    timeZone: env.TIMEZONE,
    logLevel: env.LOG_LEVEL,
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
  return { ...config, jwt: { ...config.jwt, secret } }
}
