// Liveness (the process answers) and readiness (database and, when configured, Redis answer).
import type { FastifyInstance } from 'fastify'
import type { Platform } from '../platform.ts'

export async function healthRoutes(app: FastifyInstance, platform: Platform) {
  app.get('/health/live', { config: { access: 'anyone' } }, async () => ({ status: 'ok' }))
  app.get('/health/ready', { config: { access: 'anyone' } }, async (_request, reply) => {
    const checks: Record<string, 'ok' | 'failing' | 'not configured'> = {}
    try {
      await platform.store.ping()
      checks.database = 'ok'
    } catch {
      checks.database = 'failing'
    }
    if (platform.redis) {
      checks.redis = await platform.redis.ping().then(
        () => 'ok' as const,
        () => 'failing' as const,
      )
    } else checks.redis = 'not configured'
    checks.jobs = platform.jobs.kind === 'bullmq' ? (checks.redis ?? 'ok') : 'ok'
    const ready = !Object.values(checks).includes('failing')
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks })
  })
}
