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

function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || holdsNul(item, depth + 1)) return true
  }
  return false
}

export function refuseNulText(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    // the API's routes (media names are checked by their own pattern, and a bad one is a 404)
    if (!request.routeOptions.url?.startsWith('/api/')) return
    if (request.url.includes('%00') || holdsNul(request.params) || holdsNul(request.query)) {
      throw invalid(NUL_REFUSED)
    }
    if (holdsNul(request.body)) throw invalid(NUL_REFUSED)
  })
}
