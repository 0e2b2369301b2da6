// A reply whose body is several Buffers, written as they are, in one go (issue 18's soak). The
// gzipped listing of a ledger head is pieces that are mostly kept from the head before
// (gzip-groups.ts); joining them made a new Buffer of the whole listing (~0.5 MB in a sale, its
// events listing their attendees) for each new head, and during a sale nearly every head is asked
// for once. Those Buffers were what the server's memory rose and fell with (the soak's memory log:
// up to 67 MB of Buffers waiting for the garbage collector). Written corked, the pieces leave in one
// writev, as one Buffer would.
import type { OutgoingHttpHeaders } from 'node:http'
import type { FastifyReply } from 'fastify'

/**
 * Sends the pieces as the body (200, the reply's headers and a content-length), taking the reply
 * over from Fastify (hijack): onSend hooks do not run, onResponse hooks do. Only for GET: a HEAD's
 * body is left out by Fastify's onSend, which this skips.
 */
export function sendInParts(reply: FastifyReply, parts: readonly Buffer[], length: number): void {
  reply.header('content-length', String(length))
  const headers = reply.getHeaders() as OutgoingHttpHeaders
  reply.hijack()
  const res = reply.raw
  res.writeHead(reply.statusCode, headers)
  res.cork()
  for (const part of parts) res.write(part)
  res.end()
}
