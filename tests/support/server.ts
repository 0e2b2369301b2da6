// A real listening server (the same buildApp) on a free port, for sockets and the browser, on the
// suite's store (app.ts's testConfigOnStore: a PostgreSQL database of its own under integration-pg).
import { createServer } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../server/config.ts'
import { buildApp } from '../../server/root.ts'
import type { Seams } from '../../server/services.ts'
import { testConfigOnStore } from './app.ts'

export type TestServer = {
  app: FastifyInstance
  config: Config
  url: string
  /** closes the server, keeping its data folder and database (another may start on them) */
  stop(): Promise<void>
  /** removes the data folder and drops the database this server was given (after stop()) */
  release(): Promise<void>
  /** stop() and release() */
  close(): Promise<void>
}

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
  const { config, release } = await testConfigOnStore({
    PORT: String(port),
    PUBLIC_URL: url,
    HOST: '127.0.0.1',
    ...overrides,
  })
  let app: FastifyInstance | undefined
  try {
    app = await buildApp(config, undefined, seams)
    await app.listen({ host: '127.0.0.1', port })
  } catch (error) {
    await app?.close()
    await release()
    throw error
  }
  const started = app
  let stopped: Promise<void> | null = null
  const stop = () => {
    stopped ??= started.close()
    return stopped
  }
  return {
    app: started,
    config,
    url,
    stop,
    release,
    async close() {
      try {
        await stop()
      } finally {
        await release()
      }
    },
  }
}
