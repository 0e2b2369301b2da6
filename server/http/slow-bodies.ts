// Request bodies that arrive too slowly are cut off, so a client trickling bytes cannot hold a
// connection (and a staged upload) open for as long as it likes: a body must be whole within
// BODY_TIMEOUT_SECONDS; an upload (multipart), which may rightly take longer, must instead bring
// UPLOAD_MIN_KB_PER_SECOND over every window of 10 s (BODY_TIMEOUT_SECONDS if shorter), judged once
// the first window has passed.
import { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.ts'

/** An upload's rate is judged over this window, and not before one has passed (connections start slowly). */
const UPLOAD_WINDOW_MS = 10_000
/** If a cut-off body's reader does not answer (it should at once), the reply is sent anyway after this. */
const ANSWER_WITHIN_MS = 2_000

export class SlowBody extends Error {
  readonly statusCode = 408
  readonly code = 'SLOW_BODY'
  constructor() {
    super('The request arrived too slowly and was cut off. Please try again on a steadier connection.')
  }
}

type BodyPace = { bodyTimeoutMs: number; minBytesPerSecond: number }

/**
 * Answers 408 with a message if the reply has not begun, and closes the connection (errors.ts does,
 * for a SlowBody). Whoever is reading the body (Fastify's parser, the multipart parser) is failed
 * with the error, so its own clean-up runs (staged files are removed) and its failure becomes the
 * reply through the one error handler. Destroying the request instead would destroy its socket,
 * and there would be no way left to answer.
 */
function cutOff(request: FastifyRequest, reply: FastifyReply) {
  if (reply.sent || reply.raw.headersSent) return
  const error = new SlowBody()
  request.log.info({ bytesRead: request.raw.socket?.bytesRead }, 'request body too slow')
  if (request.raw.listenerCount('error') > 0) request.raw.emit('error', error)
  setTimeout(() => {
    if (!reply.sent && !reply.raw.headersSent) reply.send(error)
  }, ANSWER_WITHIN_MS).unref()
}

/** A body (other than an upload) must be whole within the time allowed. */
function watchBody(request: FastifyRequest, reply: FastifyReply, pace: BodyPace) {
  const timer = setTimeout(() => {
    if (!request.raw.complete && !request.raw.readableEnded) cutOff(request, reply)
  }, pace.bodyTimeoutMs)
  return () => clearTimeout(timer)
}

/**
 * An upload must bring at least the minimum rate's worth of bytes in every window. Bytes the server
 * has not taken yet (a busy disk holding the stream back) are its own delay, not the client's: the
 * window starts again.
 */
function watchUpload(request: FastifyRequest, reply: FastifyReply, pace: BodyPace) {
  const raw = request.raw
  const socket = raw.socket
  const windowSeconds = Math.max(1, Math.round(Math.min(UPLOAD_WINDOW_MS, pace.bodyTimeoutMs) / 1000))
  /** bytes read from the connection, sampled once a second, the last windowSeconds + 1 of them */
  const read = [socket.bytesRead]
  const timer = setInterval(() => {
    if (raw.complete || raw.readableEnded) return clearInterval(timer)
    read.push(socket.bytesRead)
    if (raw.readableLength > 0) read.splice(0, read.length - 1)
    if (read.length <= windowSeconds) return
    if (read.length > windowSeconds + 1) read.shift()
    const arrived = (read.at(-1) as number) - (read[0] as number)
    if (arrived < pace.minBytesPerSecond * windowSeconds) {
      clearInterval(timer)
      cutOff(request, reply)
    }
  }, 1000)
  return () => clearInterval(timer)
}

export function registerSlowBodies(app: FastifyInstance, config: Pick<Config, 'bodyTimeoutMs' | 'uploads'>) {
  const pace = { bodyTimeoutMs: config.bodyTimeoutMs, minBytesPerSecond: config.uploads.minBytesPerSecond }
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw
    // Only a request that declares a body has one (RFC 9112, 6.3); an upgrade carries none.
    const declaresBody =
      raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0
    if (!declaresBody || raw.complete || !(raw.socket instanceof Socket) || raw.headers.upgrade) return done()
    const upload = /^multipart\//i.test(raw.headers['content-type'] ?? '')
    const stop = upload ? watchUpload(request, reply, pace) : watchBody(request, reply, pace)
    // Once the body is read the watch is over; once the reply is out, errors.ts bounds whatever of
    // the body is still coming.
    raw.once('end', stop)
    reply.raw.once('finish', stop)
    reply.raw.once('close', stop)
    done()
  })
}
