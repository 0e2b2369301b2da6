// The security headers every reply carries (helmet's, read once: they never depend on the request
// here) and the request's id, given to each reply as one object of a fixed shape.
//
// Fastify keeps a reply's headers in a plain object that starts empty, and reply.header() adds them
// one key at a time. Thirteen keys added so, then the route's own, cost ~2 µs per reply in V8's
// keyed stores (each one a new shape to look up) and made Node's pass over them slower too: on the
// gzipped listing (issue 18) the listing ran at 23,000 req/s with them and 29,000 without. An
// object made by a constructor that assigns the same names in the same order always has the same
// shape, which V8 keeps fast: 26,000 req/s with every header still sent.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import type { FastifyInstance, FastifyReply } from 'fastify'

/** The headers a middleware sets on a response, read once off a stand-in (it must answer at once). */
export function headersSetBy(
  middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void,
): Record<string, string> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()]
    },
  }
  let done = false
  middleware({ headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error
    done = true
  })
  if (!done || Object.keys(headers).length === 0) throw new Error('the security headers were not set at once')
  return headers
}

/** a header's name as Node accepts it, lower case (the only text put into the constructor's code) */
const TOKEN = /^[a-z0-9!#$%&'*+.^_`|~-]+$/

/**
 * A constructor of objects holding `headers` and then `x-request-id`, always in that order. Its
 * code is made from the names (checked to be header tokens), as fast-json-stringify makes its
 * serializers; the values are passed in, never written into the code.
 */
export function headerObjects(
  headers: Record<string, string>,
): new (
  requestId: string,
) => Record<string, string> {
  const names = Object.keys(headers)
  for (const name of names)
    if (!TOKEN.test(name)) throw new Error(`not a header name: ${JSON.stringify(name)}`)
  const values = names.map((name) => headers[name])
  const body = names.map((name, i) => `this[${JSON.stringify(name)}] = values[${i}]`).join('\n')
  return new Function(
    'values',
    `return function HeaderObject(requestId) {\n${body}\nthis['x-request-id'] = requestId\n}`,
  )(values)
}

/** Fastify's key of a reply's own headers object (lib/symbols.js); undefined if a version moved it */
const replyHeadersKey: symbol | undefined = (() => {
  try {
    const key = (createRequire(import.meta.url)('fastify/lib/symbols.js') as { kReplyHeaders?: unknown })
      .kReplyHeaders
    return typeof key === 'symbol' ? key : undefined
  } catch {
    return undefined
  }
})()

/** whether replies get their headers as one object of a fixed shape (else one key at a time) */
export const headersAsOneObject = () => replyHeadersKey !== undefined

/** Every reply gets `headers` and X-Request-Id (the request's id) before anything else runs. */
export function registerSecurityHeaders(app: FastifyInstance, headers: Record<string, string>) {
  const HeaderObject = headerObjects(headers)
  app.addHook('onRequest', (request, reply, done) => {
    const own =
      replyHeadersKey && (reply as unknown as Record<symbol, Record<string, unknown>>)[replyHeadersKey]
    if (own && typeof own === 'object') {
      const fresh = new HeaderObject(request.id) as Record<string, unknown>
      // whatever was set before this hook is kept, and wins
      for (const name in own) fresh[name] = own[name]
      ;(reply as unknown as Record<symbol, unknown>)[replyHeadersKey as symbol] = fresh
    } else (reply as FastifyReply).headers(headers).header('x-request-id', request.id)
    done()
  })
}
