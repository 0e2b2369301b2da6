// A scanner of replies for what must never leave the server: password hashes, reset tokens (raw or
// hashed), the payment key and webhook secrets, the JWT secret. It wraps app.inject so every reply a
// test gets is kept, and takes other texts (a WebSocket message, a fetched page) by hand; the scan
// runs at the end, so a secret learnt late (a reset token read from a mail) is looked for in every
// reply, earlier ones included.
import { createHash } from 'node:crypto'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'

/** Words that name a secret's field: a reply carrying one has leaked the field, whatever its value. */
export const secretFieldNames = ['$argon2', 'passwordHash', 'password_hash', 'tokenHash', 'token_hash']

export type ReplyScanner = {
  /** Keeps a text the scanner did not see go by (a socket message, a fetch). */
  keep(label: string, text: string): void
  /** A secret value learnt during the test (a raw reset token): its SHA-256 is looked for too. */
  learn(secret: string): void
  /** How many replies and texts were kept. */
  readonly count: number
  /** Every leak: which reply, and what it carried. */
  findings(): Promise<string[]>
  /** Gives app.inject back. */
  stop(): void
}

/**
 * Starts keeping every reply of app.inject. `secrets` is asked at the end, for the values known by
 * then (configuration secrets, stored password hashes).
 */
export function scanReplies(app: FastifyInstance, secrets: () => string[] | Promise<string[]>): ReplyScanner {
  const kept: Array<{ label: string; text: string }> = []
  const learnt: string[] = []
  const original = app.inject.bind(app)
  const inject = async (options: InjectOptions | string): Promise<LightMyRequestResponse> => {
    const res = await original(options as InjectOptions)
    const { method = 'GET', url = '' } = typeof options === 'string' ? { url: options } : options
    const label = `${method} ${String(url).split('?')[0]} → ${res.statusCode}`
    kept.push({ label, text: `${JSON.stringify(res.headers)}\n${res.body}` })
    return res
  }
  ;(app as unknown as { inject: typeof inject }).inject = inject

  return {
    keep: (label, text) => kept.push({ label, text }),
    learn: (secret) => learnt.push(secret, createHash('sha256').update(secret).digest('hex')),
    get count() {
      return kept.length
    },
    async findings() {
      const values = [...(await secrets()), ...learnt].filter((s) => s.length >= 8)
      const needles = [...secretFieldNames, ...values]
      return kept.flatMap(({ label, text }) =>
        needles
          .filter((needle) => text.includes(needle))
          .map(
            (needle) =>
              `${label} carries ${secretFieldNames.includes(needle) ? needle : `a secret (${needle.slice(0, 6)}…)`}`,
          ),
      )
    },
    stop() {
      ;(app as unknown as { inject: typeof original }).inject = original
    },
  }
}
