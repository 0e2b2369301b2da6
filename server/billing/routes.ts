// The billing area's routes (API.md, "Taxes and invoices"): the organizer's billing profile, an
// order's invoice and credit note (PDF or JSON), the organizer's documents for a return (JSON or
// CSV), and the GST rates ticket types may have.
import type { FastifyInstance } from 'fastify'
import {
  BillingBody,
  BillingView,
  DocumentQuery,
  InvoicesQuery,
  invoiceCsvColumns,
  NO_BILLING_PROFILE,
  NO_CREDIT_NOTE,
  NO_INVOICE,
  TaxRatesView,
} from '../../contracts/billing.ts'
import { TicketParams } from '../../contracts/booking.ts'
import { csvRow } from '../analytics/csv.ts'
import type { Config } from '../config.ts'
import { notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { toRupees } from '../money.ts'
import type { BillingCommands } from './commands.ts'
import { documentView, type Series } from './documents.ts'
import { documentPdf } from './pdf.ts'
import type { BillingQueries } from './queries.ts'
import type { BillingProfileRow, InvoiceDocumentRow } from './tables.ts'

export type BillingRoutesOptions = {
  billing: Pick<BillingQueries, 'profile' | 'documentsOf' | 'issuedBy'>
  commands: BillingCommands
  config: Pick<Config, 'billing'>
}

const viewOf = (row: BillingProfileRow): BillingView => ({
  legalName: row.legalName,
  gstin: row.gstin,
  address: row.address,
  state: row.state,
  invoicePrefix: row.invoicePrefix,
})

/** who may read an order's documents: its buyer (not a later holder), its organizer, an admin */
const mayRead = (row: InvoiceDocumentRow, caller: { id: string; role: string }) =>
  caller.role === 'admin' || row.buyerId === caller.id || row.organizerId === caller.id

export async function billingRoutes(fastify: FastifyInstance, options: BillingRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { billing, commands, config } = options

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

  app.get(
    '/tax-rates',
    { config: { access: 'anyone' }, schema: { response: replies({ 200: TaxRatesView }) } },
    async () => {
      const fee = config.billing.fee
      return {
        rates: config.billing.gstRates,
        fee: fee
          ? { perTicket: toRupees(fee.perTicketPaise), percent: fee.percent, taxRate: fee.ratePercent }
          : null,
      }
    },
  )

  // An order's invoice or credit note: the tickets' (the organizer's) or, with ?of=fee, the
  // booking fee's (the platform's); a PDF drawn from the stored document, or its JSON.
  const documentRoute = (path: string, series: Series, missing: string) =>
    app.get(
      path,
      { config: { access: 'signed-in' }, schema: { params: TicketParams, querystring: DocumentQuery } },
      async (request, reply) => {
        const caller = callerOf(request)
        const of = request.query.of ?? 'tickets'
        const row = (await billing.documentsOf(request.params.ticketId)).find(
          (d) => d.series === series && d.of === of,
        )
        // someone else's ticket is answered as one without the document: nothing is learnt
        if (!row || !mayRead(row, caller)) throw notFound(missing)
        const document = documentView(row.document)
        if (request.query.format === 'json') return document
        const pdf = await documentPdf(document)
        return reply
          .type('application/pdf')
          .header(
            'content-disposition',
            `inline; filename="${row.number.replace(/[^A-Za-z0-9-]/g, '_')}.pdf"`,
          )
          .header('cache-control', 'private, max-age=3600')
          .send(pdf)
      },
    )
  documentRoute('/ticket/:ticketId/invoice', 'invoice', NO_INVOICE)
  documentRoute('/ticket/:ticketId/credit-note', 'credit-note', NO_CREDIT_NOTE)

  app.get(
    '/organizer/invoices',
    { config: { access: ['organizers'], tokenScope: 'orders:read' }, schema: { querystring: InvoicesQuery } },
    async (request, reply) => {
      const caller = callerOf(request)
      const { from = '0000-01-01', to = '9999-12-31', format } = request.query
      const rows = await billing.issuedBy(caller.id, from, to)
      const documents = rows.map((row) => documentView(row.document))
      if (format !== 'csv') return documents
      const lines = [csvRow([...invoiceCsvColumns])]
      for (const d of documents) {
        lines.push(
          csvRow([
            d.number,
            d.kind,
            d.date,
            d.ticketId,
            d.buyer.name,
            d.buyer.email,
            d.placeOfSupply,
            d.totals.taxableValue.toFixed(2),
            d.totals.cgst.toFixed(2),
            d.totals.sgst.toFixed(2),
            d.totals.igst.toFixed(2),
            d.totals.total.toFixed(2),
            d.against ?? '',
          ]),
        )
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="invoices_${from}_${to}.csv"`)
        .send(lines.join(''))
    },
  )
}
