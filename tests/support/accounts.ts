// Sign-up and sign-in through the real API, for tests that need accounts of each role.
import type { FastifyInstance } from 'fastify'
import { registerAccount } from '../../server/accounts/register.ts'
import { ADMIN } from './app.ts'

let counter = 0

export type Session = { id: string; email: string; password: string; username: string; token: string }

export async function login(app: FastifyInstance, email: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } })
  if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`)
  return res.json().token
}

async function profileId(app: FastifyInstance, token: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/v1/auth/profile', headers: bearer(token) })
  return res.json().user._id
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

export async function signUp(app: FastifyInstance, name = `user${++counter}`): Promise<Session> {
  const email = `${name}-${Date.now()}-${counter}@example.com`.toLowerCase()
  const password = 'password-1'
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { username: name, email, password },
  })
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.statusCode} ${res.body}`)
  const token = await login(app, email, password)
  return { id: await profileId(app, token), email, password, username: name, token }
}

export async function adminSession(app: FastifyInstance): Promise<Session> {
  const token = await login(app, ADMIN.email, ADMIN.password)
  return { id: await profileId(app, token), ...ADMIN, token }
}

export async function organizerSession(app: FastifyInstance, name = `org${++counter}`): Promise<Session> {
  const admin = await adminSession(app)
  const email = `${name}-${Date.now()}-${counter}@example.com`.toLowerCase()
  const password = 'organizer-1'
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/admin/create-organizer',
    headers: bearer(admin.token),
    payload: { name, email, password },
  })
  if (res.statusCode !== 201) throw new Error(`create-organizer failed: ${res.statusCode} ${res.body}`)
  const token = await login(app, email, password)
  return { id: await profileId(app, token), email, password, username: name, token }
}

/**
 * `n` distinct accounts made at once through the real Register command (no HTTP, no rate limit),
 * signed in with the app's own tokens: the crowds of the concurrency tests.
 */
export async function crowd(
  app: FastifyInstance,
  n: number,
  prefix: string,
): Promise<Array<{ id: string; token: string }>> {
  const ids = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      registerAccount(app.platform.ledger, {
        username: `${prefix}${i}`,
        email: `${prefix}${i}@example.com`,
        password: 'password-1',
        role: 'user',
      }),
    ),
  )
  const { accounts } = app.platform.store.queries
  return Promise.all(
    ids.map(async (id) => {
      const account = await accounts.byId(id)
      if (!account) throw new Error(`account ${id} missing`)
      return { id, token: app.tokens.sign(account) }
    }),
  )
}
