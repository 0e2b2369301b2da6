// The one place errors become replies: typed domain errors keep their status and message,
// Fastify's own 4xx keep theirs, anything else is logged and answered without detail.
import { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DomainError, statusOf } from '../errors.ts'
import { StreamVersionConflict } from '../ledger/ledger.ts'
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
 * A refused request's unread body is read and thrown away, up to this much for up to this long, so
 * the client can finish sending and read the reply; past either, the connection is closed.
 */
const DRAIN_BYTES = 64 * 1024 * 1024
const DRAIN_MS = 30_000
/** Once the reply is out and the write side closed, what the client still sends is read for this long. */
const LINGER_MS = 2_000

/**
 * Ends the connection gracefully once the reply is written, as RFC 9112 (9.6) asks: the write side
 * first (the client gets the reply, then end-of-stream), while the rest of the body is still read
 * and dropped for a moment; only then is the socket destroyed. Destroying it at once, or with
 * unread bytes, makes the kernel answer the client's further bytes with a reset, and a client
 * still busy sending then reports ECONNRESET/EPIPE instead of the reply.
 */
function closeAfterReply(request: FastifyRequest, reply: FastifyReply) {
  const socket = request.raw.socket
  // (app.inject's requests have a stand-in socket, with nothing to close)
  if (!(socket instanceof Socket) || socket.destroyed) return
  const close = () => {
    if (socket.destroyed) return
    socket.end()
    const linger = setTimeout(() => socket.destroy(), LINGER_MS)
    socket.once('close', () => clearTimeout(linger))
  }
  if (reply.raw.writableFinished) close()
  else reply.raw.once('finish', close)
}

/**
 * A request refused before its body was read (no token, the wrong role, a disguised file, a size
 * cap) still has its body on the way. The reply goes out at once; the rest of the body is drained
 * so the connection can serve the next request, within DRAIN_BYTES and DRAIN_MS, after which (or
 * at once, for a body declared larger than that, or one cut off for arriving too slowly) the
 * connection is closed gracefully. The reply does not say `Connection: close`: Node would then
 * destroy the socket as soon as the reply is written, while the client is still sending.
 */
function settleUnreadBody(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const raw = request.raw
  if (raw.complete || raw.destroyed) return
  // Fastify's body parser asks for Connection: close on its own refusals, for the same reason.
  reply.removeHeader('connection')
  // A multipart parser that gave up must not hold the stream back (nor parse what is thrown away).
  raw.unpipe()
  let drained = 0
  let closing = false
  const close = () => {
    if (closing) return
    closing = true
    clearTimeout(deadline)
    closeAfterReply(request, reply)
  }
  const deadline = setTimeout(close, DRAIN_MS)
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length
    if (drained > DRAIN_BYTES) close()
  })
  raw.once('end', () => clearTimeout(deadline))
  raw.once('close', () => clearTimeout(deadline))
  raw.resume()
  const declared = Number(request.headers['content-length'])
  if (error instanceof SlowBody || declared > DRAIN_BYTES) close()
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | DomainError | StreamVersionConflict, request, reply) => {
    settleUnreadBody(request, reply, error)
    const withStatusFlag = <T extends object>(body: T) =>
      request.routeOptions.config?.statusFlag ? { status: false as const, ...body } : body
    if (error instanceof DomainError) {
      if (error.details.retryAfterSeconds) reply.header('retry-after', error.details.retryAfterSeconds)
      return reply.code(statusOf[error.kind]).send(
        withStatusFlag({
          message: error.message,
          ...(error.details.issues ? { issues: error.details.issues } : {}),
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
    const status = (error as FastifyError).statusCode
    if (status && status >= 400 && status < 500) {
      const code = (error as FastifyError).code
      return reply.code(status).send(withStatusFlag({ message: friendly[code] ?? error.message }))
    }
    request.log.error({ err: error }, 'request failed')
    return reply.code(500).send({ message: SERVER_FAULT })
  })
}
