// Text with the NUL character (U+0000) is refused at the door, on every API route: PostgreSQL cannot
// store it in a text column (SQLite can), so the same request must get the same answer whichever
// store holds the ledger: a 400 with a message, and nothing kept. The error handler maps the
// database's own refusal to the same answer, for text that reaches it another way (a multipart
// field).
import type { FastifyInstance } from 'fastify'
import { invalid } from '../errors.ts'

export const NUL_REFUSED = 'Text may not contain the NUL character (U+0000).'

/** PostgreSQL's codes for text it cannot store: a NUL byte, a character it cannot convert */
export const isUnstorableText = (error: unknown) => {
  const code = (error as { code?: unknown })?.code
  return code === '22021' || code === '22P05'
}

/** where a NUL is: the dot path of the first field holding one ('' for the value itself), or null */
function nulAt(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? '' : null
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return key.replaceAll('\u0000', '')
    const inner = nulAt(item, depth + 1)
    if (inner !== null) return inner === '' ? key : `${key}.${inner}`
  }
  return null
}

export function refuseNulText(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    // the API's routes (media names are checked by their own pattern, and a bad one is a 404)
    if (!request.routeOptions.url?.startsWith('/api/')) return
    // the field, as a validation error names it (API.md: `issues` with field and message)
    const refuse = (field: string) => invalid(NUL_REFUSED, [{ field, message: NUL_REFUSED }])
    if (request.url.includes('%00')) throw refuse('request')
    for (const part of [request.params, request.query, request.body]) {
      const at = nulAt(part)
      if (at !== null) throw refuse(at || 'request')
    }
  })
}
