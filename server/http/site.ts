// GET /site: the installation's public settings, read once by the web app (the test-mode banner,
// the cancellation cutoff shown on tickets).
import type { FastifyInstance } from 'fastify'
import { SiteReply } from '../../contracts/site.ts'
import type { Config } from '../config.ts'
import { replies } from './valibot.ts'

export async function siteRoutes(app: FastifyInstance, config: Config) {
  const site: SiteReply = {
    testPayments: config.payments.provider === 'local',
    cancelCutoffHours: config.booking.cancelCutoffHours,
    maxTicketsPerOrder: config.booking.maxTicketsPerOrder,
    timeZone: config.timeZone,
  }
  app.get(
    '/site',
    { config: { access: 'anyone' }, schema: { response: replies({ 200: SiteReply }) } },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=60').send(site),
  )
}
