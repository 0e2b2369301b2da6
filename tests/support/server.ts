// A real listening server (the same buildApp) on a free port, for sockets and the browser.
import { createServer } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../server/config.ts'
import { buildApp } from '../../server/root.ts'
import type { Seams } from '../../server/services.ts'
import { testConfig } from './app.ts'

export type TestServer = { app: FastifyInstance; config: Config; url: string; close(): Promise<void> }

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

export async function startServer(
  overrides: Record<string, string> = {},
  seams: Seams = {},
): Promise<TestServer> {
  const port = await freePort()
  const url = `http://localhost:${port}`
  const config = testConfig({ PORT: String(port), PUBLIC_URL: url, HOST: '127.0.0.1', ...overrides })
  const app = await buildApp(config, undefined, seams)
  await app.listen({ host: '127.0.0.1', port })
  return {
    app,
    config,
    url,
    async close() {
      await app.close()
    },
  }
}
