// The security headers given to each reply as one object of a fixed shape (server/http/
// security-headers.ts): the same headers helmet sets, in its order, then the request's id; a route's
// own header still wins; and a name that is not a header token never reaches the generated code.
import Fastify from 'fastify'
import helmet from 'helmet'
import { describe, expect, it } from 'vitest'
import {
  headerObjects,
  headersAsOneObject,
  headersSetBy,
  registerSecurityHeaders,
} from '../../server/http/security-headers.ts'

const helmetHeaders = headersSetBy(helmet())

describe('security headers as one object', () => {
  it("holds helmet's headers in helmet's order, then the request's id", () => {
    const HeaderObject = headerObjects(helmetHeaders)
    const made = new HeaderObject('id-1')

    expect(Object.keys(helmetHeaders).length).toBeGreaterThan(10)
    expect(Object.entries(made)).toEqual([...Object.entries(helmetHeaders), ['x-request-id', 'id-1']])
    expect(new HeaderObject('id-2')['x-request-id']).toBe('id-2')
  })

  it('refuses a name that is not a header token, so no text of it becomes code', () => {
    expect(() => headerObjects({ "x'] = globalThis.pwned = 1; this['y": 'v' })).toThrow(/not a header name/)
    expect(() => headerObjects({ 'X-Upper': 'v' })).toThrow(/not a header name/)
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined()
  })

  it("are on every reply of an app, with the request's id, and a route's own header wins", async () => {
    // Fastify's reply keeps its headers under a key of lib/symbols.js: found, so the fast path is used
    expect(headersAsOneObject()).toBe(true)
    const app = Fastify({ genReqId: () => 'the-id' })
    registerSecurityHeaders(app, helmetHeaders)
    app.get('/plain', async () => ({ ok: true }))
    app.get('/open', async (_, reply) => {
      reply.header('Cross-Origin-Resource-Policy', 'cross-origin').header('x-extra', '1')
      reply.removeHeader('x-xss-protection')
      return { ok: true }
    })

    const plain = await app.inject({ method: 'GET', url: '/plain' })
    const open = await app.inject({ method: 'GET', url: '/open' })
    const missing = await app.inject({ method: 'GET', url: '/nowhere' })

    for (const res of [plain, missing]) {
      for (const [name, value] of Object.entries(helmetHeaders)) expect(res.headers[name], name).toBe(value)
      expect(res.headers['x-request-id']).toBe('the-id')
    }
    expect(plain.json()).toEqual({ ok: true })
    expect(missing.statusCode).toBe(404)
    expect(open.headers['cross-origin-resource-policy']).toBe('cross-origin')
    expect(open.headers['x-extra']).toBe('1')
    expect(open.headers['x-xss-protection']).toBeUndefined()
    expect(open.headers['content-security-policy']).toBe(helmetHeaders['content-security-policy'])
    await app.close()
  })
})
