// "Five wrong passwords from anyone lock the real owner out" (issue 11), over real connections:
// a listening server, clients bound to their own loopback addresses (Linux routes all of
// 127.0.0.0/8 to lo, so 127.0.0.2 and 127.0.0.3 reach a server on 127.0.0.1 as two machines
// would), the default limits. An attacker's failures shut out the attacker's address, not the owner.
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from '../support/server.ts'

const ATTACKER = '127.0.0.2'
const OWNER = '127.0.0.3'

let server: TestServer
let port: number

beforeAll(async () => {
  server = await startServer()
  port = Number(new URL(server.url).port)
})
afterAll(async () => {
  await server?.close()
})

type Answer = { status: number; retryAfter: string | undefined; body: Record<string, unknown> }

/** POSTs JSON from the given local address, on a connection of its own. */
function postFrom(localAddress: string, path: string, body: unknown): Promise<Answer> {
  const payload = JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `/api/v1${path}`,
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () => {
          const retryAfter = res.headers['retry-after']
          resolve({ status: res.statusCode ?? 0, retryAfter, body: JSON.parse(text) })
        })
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

describe('POST /api/v1/auth/login from two addresses', () => {
  it('lets the owner sign in from 127.0.0.3 after 50 failures from 127.0.0.2, which stays refused even with the right password', async () => {
    const email = `owner-${Date.now()}@example.com`
    const password = 'the-owners-password'
    const registered = await postFrom(OWNER, '/auth/register', { username: 'Owner', email, password })
    expect(registered.status).toBe(200)

    const attempts: number[] = []
    for (let i = 0; i < 50; i++) {
      attempts.push((await postFrom(ATTACKER, '/auth/login', { email, password: `guess-${i}` })).status)
    }
    const owner = await postFrom(OWNER, '/auth/login', { email, password })
    const attacker = await postFrom(ATTACKER, '/auth/login', { email, password })

    // LOGIN_FAILS_PER_ACCOUNT_ADDRESS (10) guesses are checked, the other 40 refused unchecked.
    expect(attempts).toEqual([...Array(10).fill(401), ...Array(40).fill(429)])
    expect(owner.status).toBe(200)
    expect(owner.body).toEqual({ status: true, token: expect.any(String), message: expect.any(String) })
    expect(attacker.status).toBe(429)
    expect(attacker.body).toEqual({ status: false, message: expect.stringMatching(/\S/) })
    expect(Number(attacker.retryAfter)).toBeGreaterThan(0)
  })
})
