// JSON bodies: Fastify's own parser (its guards against __proto__ and constructor poisoning kept),
// except that an empty body sent with a JSON content type is no body at all on a route that takes
// none. The original product's backend (Express's JSON parser) read it as nothing, and a client
// that sends `Content-Type: application/json` on every call (SPEC §7: "JSON content type") posts
// POST /admin/support/get or DELETE /ticket/{id} so. A route that takes a body still says it is
// empty (400), as before.
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
    parse(request, body.toString(), done)
  })
}
