// JSON bodies: Fastify's own parser (its guards against __proto__ and constructor poisoning kept),
// except that an empty body sent with a JSON content type is no body at all on a route that takes
// none. The original product's backend (Express's JSON parser) read it as nothing, and a client
// that sends `Content-Type: application/json` on every call (SPEC §7: "JSON content type") posts
// POST /admin/support/get or DELETE /ticket/{id} so. A route that takes a body still says it is
// empty (400), as before. A lone UTF-16 surrogate written as an escape (`"\ud800"`: no character
// at all) becomes U+FFFD, as in any text sent as UTF-8 bytes: stored as it was, it passed the checks
// and broke where a store reads the text as JSON or UTF-8 (PostgreSQL refused the seat map: a 500).
import type { FastifyInstance, FastifyRequest } from 'fastify'

type Done = (error: Error | null, body?: unknown) => void

export function readJsonBodies(app: FastifyInstance) {
  // Fastify's own parser answers through its callback (it is the callback form of its type)
  const parse = app.getDefaultJsonParser('error', 'error') as (
    request: FastifyRequest,
    body: string,
    done: Done,
  ) => void
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && request.routeOptions.schema?.body === undefined) {
      done(null, undefined)
      return
    }
    const text = body.toString()
    if (!SURROGATE_ESCAPE.test(text)) {
      parse(request, text, done)
      return
    }
    parse(request, text, (error, parsed) => (error ? done(error) : done(null, wellFormed(parsed))))
  })
}

/** an escaped surrogate in a JSON text (a pair, for a character beyond U+FFFF, or a lone one) */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/

/** a surrogate with no partner: not a character */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** a parsed body with every lone surrogate of its texts (and its keys) made U+FFFD */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\uFFFD')
  if (Array.isArray(value)) return value.map(wellFormed)
  if (value === null || typeof value !== 'object') return value
  const made: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    // defined, not assigned: no key reaches the prototype (the parser refused __proto__ already)
    Object.defineProperty(made, wellFormed(key) as string, {
      value: wellFormed(item),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return made
}
