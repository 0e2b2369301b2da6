// The billing profile's routes (API.md, "Taxes and invoices"): PUT and GET /organizer/billing.
import type { FastifyInstance } from 'fastify'
import { BillingBody, BillingView, NO_BILLING_PROFILE } from '../../contracts/billing.ts'
import { notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import type { BillingCommands } from './commands.ts'
import type { BillingQueries } from './queries.ts'
import type { BillingProfileRow } from './tables.ts'

export type BillingRoutesOptions = { billing: Pick<BillingQueries, 'profile'>; commands: BillingCommands }

const viewOf = (row: BillingProfileRow): BillingView => ({
  legalName: row.legalName,
  gstin: row.gstin,
  address: row.address,
  state: row.state,
  invoicePrefix: row.invoicePrefix,
})

export async function billingRoutes(fastify: FastifyInstance, options: BillingRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { billing, commands } = options

  app.put(
    '/organizer/billing',
    {
      config: { access: ['organizers'] },
      schema: { body: BillingBody, response: replies({ 200: BillingView }) },
    },
    async (request) => {
      const caller = callerOf(request)
      await commands.setProfile(caller.id, request.body, { actor: caller.id, requestId: request.id })
      const row = await billing.profile(caller.id)
      if (!row) throw notFound(NO_BILLING_PROFILE)
      return viewOf(row)
    },
  )

  app.get(
    '/organizer/billing',
    { config: { access: ['organizers'] }, schema: { response: replies({ 200: BillingView }) } },
    async (request) => {
      const row = await billing.profile(callerOf(request).id)
      if (!row) throw notFound(NO_BILLING_PROFILE)
      return viewOf(row)
    },
  )
}
