// The one place errors become replies: typed domain errors keep their status and message,
// Fastify's own 4xx keep theirs, anything else is logged and answered without detail.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DomainError, statusOf } from '../errors.ts'
import { StreamVersionConflict } from '../ledger/ledger.ts'

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

/** How much of a refused request's unread body is read and thrown away before the socket is cut. */
const DRAIN_LIMIT = 16 * 1024 * 1024

/**
 * A request refused before its body was read (an upload over its limit) would leave the client
 * sending into a paused socket forever: the reply closes the connection, and the rest of the
 * body is drained up to a limit so the client can read the reply, then the socket is cut.
 */
function discardRest(request: FastifyRequest, reply: FastifyReply) {
  const raw = request.raw
  if (raw.complete || raw.destroyed) return
  reply.header('connection', 'close')
  let drained = 0
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length
    if (drained > DRAIN_LIMIT) raw.socket?.destroy()
  })
  raw.resume()
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | DomainError | StreamVersionConflict, request, reply) => {
    discardRest(request, reply)
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
