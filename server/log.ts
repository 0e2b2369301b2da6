// The process's logger, shared by the server and the worker process.
import pino, { type DestinationStream, type Logger } from 'pino'
import pretty from 'pino-pretty'
import type { Config } from './config.ts'

/**
 * JSON lines, one object each (production, tests, anything piped); readable lines (pino-pretty,
 * written synchronously so nothing is lost on exit) in development on a terminal or with
 * LOG_FORMAT=pretty.
 */
/**
 * What a log line never shows, should a request, its body or an object holding them be logged:
 * sign-in headers, the gateway's signature, passwords, tokens and secrets.
 */
const SECRET_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-razorpay-signature"]',
  'req.body.password',
  'req.body.token',
  'password',
  'newPassword',
  'token',
  'secret',
  '*.password',
  '*.newPassword',
  '*.token',
  '*.secret',
  '*.keySecret',
  '*.webhookSecret',
]

export function createLogger(
  config: Pick<Config, 'logLevel' | 'logFormat' | 'env'>,
  /** where JSON lines go (stdout unless given) */
  destination?: DestinationStream,
): Logger {
  const options = { level: config.logLevel, redact: SECRET_PATHS }
  const readable =
    config.logFormat === 'pretty' ||
    (config.logFormat === 'auto' && config.env === 'development' && process.stdout.isTTY === true)
  if (!readable) return destination ? pino(options, destination) : pino(options)
  return pino(
    options,
    pretty({
      sync: true,
      colorize: process.stdout.isTTY === true,
      // a request's line already says method, url, status and ms; its id goes after the message
      ignore: 'pid,hostname,reqId,method,url,status,ms',
      messageFormat: '{msg}{if reqId} ({reqId}){end}',
      translateTime: 'SYS:HH:MM:ss.l',
    }),
  )
}

/**
 * A request's address as its log line shows it: a reset link's token (its path is the secret that
 * sets a new password) and any password or token in the query left out.
 */
export const urlForLog = (url: string) =>
  url
    .replace(/(\/reset-password\/)[^/?#]+/, '$1***')
    .replace(/([?&](?:password|pass|pwd|secret|token)=)[^&#]*/gi, '$1***')
