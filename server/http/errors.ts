// The one place errors become replies: typed domain errors keep their status and message,
// Fastify's own 4xx keep theirs, anything else is logged and answered without detail.
import { STATUS_CODES } from 'node:http'
import { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DomainError, statusOf } from '../errors.ts'
import { StreamVersionConflict } from '../ledger/ledger.ts'
import { isUnstorableText, NUL_REFUSED } from './nul-text.ts'
import { SlowBody } from './slow-bodies.ts'

export const SERVER_FAULT = 'Something went wrong on our side. Please try again.'
export const BUSY = 'The server is busy. Please try again in a moment.'

const friendly: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This content type is not accepted here.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its declared length.',
  FST_FILES_LIMIT: 'Too many files in one request.',
  FST_PARTS_LIMIT: 'Too many parts in one request.',
  FST_FIELDS_LIMIT: 'Too many fields in one request.',
  FST_REQ_FILE_TOO_LARGE: 'A file is larger than the limit.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Send this as multipart/form-data.',
  FST_PROTO_VIOLATION: 'A field name is not allowed.',
}

/**
 * A request Node's parser could not read (broken framing, headers over the limit, one too slow to
 * arrive), answered in the API's shape, {message}, then the connection closed: Fastify's own
 * answer is {error, message: "Client Error", statusCode}. Nothing is answered on a connection
 * already gone.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request took too long to arrive.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are too large.']
        : [400, 'The request could not be read: it is not well-formed HTTP.']
  const body = JSON.stringify({ message })
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(error)
}

type Linger = { bytes: number; ms: number; quietMs: number }
/**
 * After a refusal, the unread rest of the body is still read and thrown away while the connection
 * closes: up to this much, for up to this long, and while the client does not go quiet for longer
 * than quietMs; past any of them the socket is destroyed.
 */
const LINGER: Linger = { bytes: 64 * 1024 * 1024, ms: 30_000, quietMs: 5_000 }
/** A body cut off for arriving too slowly gets a short linger only. */
const SLOW_LINGER: Linger = { bytes: 1024 * 1024, ms: 2_000, quietMs: 2_000 }

/** requests whose connection closeAfterReply already closes */
const closing = new WeakSet<object>()

/** Only a request that declares a body has one (RFC 9112, 6.3). */
const declaresBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0

/**
 * A request refused before its body was read (no token, the wrong role, a disguised file, a size
 * cap, a body too slow) still has its body on the way. The reply goes out at once and the
 * connection is closed gracefully, as RFC 9112 (9.6) asks: the write side first, so the client
 * reads the reply and then end-of-stream (and stops sending, as Node's and undici's clients do),
 * while the rest of the body is read and thrown away within the linger's bounds; only then is the
 * socket destroyed. Destroying it while the client is still sending (which Node does on a reply
 * that says `Connection: close`) makes the kernel answer with a reset, and the client reports
 * ECONNRESET/EPIPE instead of the reply; keeping the connection open instead leaves Node's client
 * waiting forever, as it stops sending once it has its reply.
 */
function closeAfterReply(request: FastifyRequest, reply: FastifyReply, linger: Linger) {
  const raw = request.raw
  if (raw.complete || raw.destroyed || closing.has(raw)) return
  closing.add(raw)
  // Fastify's body parser asks for Connection: close on its own refusals.
  reply.removeHeader('connection')
  // A multipart parser that gave up must not hold the stream back (nor parse what is thrown away).
  raw.unpipe()
  const socket = raw.socket
  // (app.inject's requests have a stand-in socket: their body is dropped, and there is nothing to close)
  if (!(socket instanceof Socket)) {
    raw.resume()
    return
  }
  const cut = () => socket.destroy()
  const deadline = setTimeout(cut, linger.ms)
  let quiet: NodeJS.Timeout | undefined
  const heard = () => {
    clearTimeout(quiet)
    quiet = setTimeout(cut, linger.quietMs)
  }
  let read = 0
  raw.on('data', (chunk: Buffer) => {
    read += chunk.length
    if (read > linger.bytes) cut()
    else if (quiet) heard()
  })
  raw.resume()
  socket.once('close', () => {
    clearTimeout(deadline)
    clearTimeout(quiet)
  })
  const end = () => {
    if (socket.destroyed) return
    socket.end()
    heard()
  }
  // A client that sent `Connection: close` gets that reply, and Node then closes its socket with
  // destroySoon(): destroyed as soon as the reply is written, while the body is still coming (a
  // reset). This one socket closes as above instead.
  socket.destroySoon = end
  if (reply.raw.writableFinished) end()
  else reply.raw.once('finish', end)
}

export const NO_HOST = 'The request has no Host header: HTTP/1.1 requires one.'

/** An HTTP/1.1 request without a Host header (RFC 9112, 3.2; HTTP/1.0 may leave it out) is a 400. */
export function refuseWithoutHost(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.raw
    if (raw.headers.host === undefined && raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1)
      done(new DomainError('invalid', NO_HOST))
    else done()
  })
}

export function registerErrorHandling(app: FastifyInstance) {
  // Any other reply that goes out before its request's body has arrived (an address that does not
  // exist, a route that never reads it) closes the same way.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (declaresBody(request)) closeAfterReply(request, reply, LINGER)
    done(null, payload)
  })
  app.setErrorHandler((error: FastifyError | DomainError | StreamVersionConflict, request, reply) => {
    closeAfterReply(request, reply, error instanceof SlowBody ? SLOW_LINGER : LINGER)
    const withStatusFlag = <T extends object>(body: T) =>
      request.routeOptions.config?.statusFlag ? { status: false as const, ...body } : body
    if (error instanceof DomainError) {
      if (error.details.retryAfterSeconds) reply.header('retry-after', error.details.retryAfterSeconds)
      return reply.code(statusOf[error.kind]).send(
        withStatusFlag({
          message: error.message,
          ...(error.details.issues ? { issues: error.details.issues } : {}),
          ...(error.details.seats ? { seats: error.details.seats } : {}),
        }),
      )
    }
    if (error instanceof StreamVersionConflict) {
      return reply
        .code(409)
        .send(withStatusFlag({ message: 'Someone else changed this at the same moment. Please try again.' }))
    }
    // The database stayed locked past its busy timeout (another process holding the write
    // lock): nothing was written, and trying again shortly is the right advice.
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      request.log.warn({ err: error }, 'database busy')
      return reply
        .code(503)
        .header('retry-after', 1)
        .send(withStatusFlag({ message: BUSY }))
    }
    if (isUnstorableText(error)) {
      return reply
        .code(400)
        .send(withStatusFlag({ message: NUL_REFUSED, issues: [{ field: 'request', message: NUL_REFUSED }] }))
    }
    const status = (error as FastifyError).statusCode
    if (status && status >= 400 && status < 500) {
      const code = (error as FastifyError).code
      return reply.code(status).send(withStatusFlag({ message: friendly[code] ?? error.message }))
    }
    request.log.error({ err: error }, 'request failed')
    return reply.code(500).send({ message: SERVER_FAULT })
  })
}
