// The billing area's routes (API.md, "Taxes and invoices"): the organizer's billing profile, an
// order's invoice and credit note (PDF or JSON), the organizer's documents for a return (JSON or
// CSV), a buyer's documents, the GST rates ticket types may have, and the platform's booking fee.
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply } from 'fastify'
import {
  BillingBody,
  BillingView,
  BookingFeeBody,
  BookingFeeView,
  BUYER_DOCUMENT_PAGE_LIMIT,
  BUYER_DOCUMENTS_MAX,
  type BuyerDocument,
  BuyerDocumentsQuery,
  DocumentQuery,
  type FeeView,
  InvoicesQuery,
  invoiceCsvColumns,
  NO_BILLING_PROFILE,
  NO_CREDIT_NOTE,
  NO_INVOICE,
  TaxRatesView,
} from '../../contracts/billing.ts'
import { TicketParams } from '../../contracts/booking.ts'
import { gstRateRefusal } from '../../contracts/catalog.ts'
import { csvRow } from '../analytics/csv.ts'
import type { Config } from '../config.ts'
import { invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { toPaise, toRupees } from '../money.ts'
import type { BillingCommands } from './commands.ts'
import { documentView, PLATFORM_SUPPLIER, type Series } from './documents.ts'
import { keptPdf, pdfTag } from './pdf.ts'
import type { BillingQueries } from './queries.ts'
import type { BillingProfileRow, InvoiceDocumentRow } from './tables.ts'
import { type FeeTerms, feeCharged } from './tax.ts'

export type BillingRoutesOptions = {
  billing: Pick<
    BillingQueries,
    'profile' | 'documentsOf' | 'issuedBy' | 'bookingFee' | 'boughtBy' | 'countBoughtBy'
  >
  commands: BillingCommands
  config: Pick<Config, 'billing'>
}

const sameProfile = (a: BillingView, b: BillingView) =>
  a.legalName === b.legalName &&
  a.gstin === b.gstin &&
  a.address === b.address &&
  a.state === b.state &&
  a.invoicePrefix === b.invoicePrefix

const feeView = (fee: FeeTerms): FeeView => ({
  perTicket: toRupees(fee.perTicketPaise),
  percent: fee.percent,
  taxRate: fee.ratePercent,
})

const viewOf = (row: BillingProfileRow): BillingView => ({
  legalName: row.legalName,
  gstin: row.gstin,
  address: row.address,
  state: row.state,
  invoicePrefix: row.invoicePrefix,
})

/** who may read an order's documents: its buyer (not a later holder), an admin, and the event's
 * organizer the tickets' (the booking fee's are between the platform and the buyer) */
const mayRead = (row: InvoiceDocumentRow, caller: { id: string; role: string }) =>
  caller.role === 'admin' ||
  row.buyerId === caller.id ||
  (row.of === 'tickets' && row.organizerId === caller.id)

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
      const body = request.body
      const before = await billing.profile(caller.id)
      // the profile as it is, sent again (a form saved twice, a client retrying): no new fact
      const same =
        before !== undefined &&
        sameProfile(viewOf(before), { ...body, gstin: body.gstin || null } as BillingView)
      if (!same) await commands.setProfile(caller.id, body, { actor: caller.id, requestId: request.id })
      const row = same ? before : await billing.profile(caller.id)
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
      const fee = feeCharged(await billing.bookingFee(), config.billing.fee)
      return { rates: config.billing.gstRates, fee: fee ? feeView(fee) : null }
    },
  )

  // The platform's booking fee (issue 42): its admins set it; until one does, the deployment's
  // settings (BOOKING_FEE_*) give it. Each checkout is priced on the fee as it is then.
  const bookingFee = async (): Promise<BookingFeeView> => {
    const set = await billing.bookingFee()
    const fee = feeCharged(set, config.billing.fee)
    return {
      ...(fee
        ? feeView(fee)
        : { perTicket: 0, percent: 0, taxRate: set?.ratePercent ?? config.billing.feeRatePercent }),
      updatedAt: set?.updatedAt ?? null,
      taxed: config.billing.platform.gstin !== null,
    }
  }
  app.get(
    '/admin/booking-fee',
    { config: { access: ['admin'] }, schema: { response: replies({ 200: BookingFeeView }) } },
    bookingFee,
  )
  app.put(
    '/admin/booking-fee',
    {
      config: { access: ['admin'] },
      schema: { body: BookingFeeBody, response: replies({ 200: BookingFeeView }) },
    },
    async (request) => {
      const { perTicket, percent, taxRate } = request.body
      const rates = config.billing.gstRates
      if (!rates.includes(taxRate)) {
        const message = gstRateRefusal(rates)
        throw invalid(message, [{ field: 'taxRate', message }])
      }
      const caller = callerOf(request)
      await commands.setBookingFee(
        { perTicketPaise: toPaise(perTicket), percent, ratePercent: taxRate },
        { actor: caller.id, requestId: request.id },
      )
      return bookingFee()
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
        // asked again, it is the same PDF: told so (304), or drawn once while it is among the last
        const tag = pdfTag(document)
        reply.header('etag', tag).header('cache-control', 'private, max-age=3600')
        if (request.headers['if-none-match'] === tag) return reply.code(304).send()
        const pdf = await keptPdf(tag, document)
        return reply
          .type('application/pdf')
          .header(
            'content-disposition',
            `inline; filename="${row.number.replace(/[^A-Za-z0-9-]/g, '_')}.pdf"`,
          )
          .send(pdf)
      },
    )
  documentRoute('/ticket/:ticketId/invoice', 'invoice', NO_INVOICE)
  documentRoute('/ticket/:ticketId/credit-note', 'credit-note', NO_CREDIT_NOTE)

  /** a supplier's register of documents (from, to: days, both included), as JSON or CSV: what its
   * monthly return needs. Sent as it is read, a batch at a time from where the last ended: a
   * register of any length is given whole, never held whole in memory (the documents never change,
   * and those issued meanwhile come after the last read or in a batch still to come). */
  const register = async (
    supplierId: string,
    query: { from?: string; to?: string; format?: 'csv' | 'json' },
    reply: FastifyReply,
  ) => {
    const { from = '0000-01-01', to = '9999-12-31', format } = query
    const batch = config.billing.registerBatch
    // the first batch before the reply starts: a failure to read is still an error reply
    const first = await billing.issuedBy(supplierId, from, to, batch)
    async function* documents() {
      let rows = first
      for (;;) {
        for (const row of rows) yield documentView(row.document)
        const last = rows.at(-1)
        if (rows.length < batch || !last) return
        rows = await billing.issuedBy(supplierId, from, to, batch, {
          issuedOn: last.issuedOn,
          credit: last.credit === 1 ? 1 : 0,
          fy: last.fy,
          seq: last.seq,
        })
      }
    }
    if (format !== 'csv') {
      async function* json() {
        let n = 0
        yield '['
        for await (const d of documents()) yield `${n++ === 0 ? '' : ','}${JSON.stringify(d)}`
        yield ']'
      }
      return reply.type('application/json; charset=utf-8').send(Readable.from(json()))
    }
    async function* csv() {
      yield csvRow([...invoiceCsvColumns])
      for await (const d of documents())
        yield csvRow([
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
        ])
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="invoices_${from}_${to}.csv"`)
      .send(Readable.from(csv()))
  }

  app.get(
    '/organizer/invoices',
    { config: { access: ['organizers'], tokenScope: 'orders:read' }, schema: { querystring: InvoicesQuery } },
    async (request, reply) => register(callerOf(request).id, request.query, reply),
  )

  // the caller's documents as a buyer: a ticket transferred since keeps its invoice here
  app.get(
    '/account/invoices',
    { config: { access: 'signed-in' }, schema: { querystring: BuyerDocumentsQuery } },
    async (request, reply): Promise<BuyerDocument[]> => {
      const buyerId = callerOf(request).id
      const { page, limit = BUYER_DOCUMENT_PAGE_LIMIT } = request.query
      const view = (rows: InvoiceDocumentRow[]) =>
        rows.map((row) => ({ ...documentView(row.document), of: row.of }))
      if (!page) return view(await billing.boughtBy(buyerId, BUYER_DOCUMENTS_MAX))
      // a page: the whole count in a header (the body stays a bare array), and the next page's
      // address while there is one
      const total = await billing.countBoughtBy(buyerId)
      reply.header('x-total-count', String(total))
      if (page * limit < total)
        reply.header('link', `</api/v1/account/invoices?page=${page + 1}&limit=${limit}>; rel="next"`)
      return view(await billing.boughtBy(buyerId, limit, (page - 1) * limit))
    },
  )

  // the platform's own series: the booking fee's invoices and credit notes (issue 42), for its return
  app.get(
    '/admin/invoices',
    { config: { access: ['admin'] }, schema: { querystring: InvoicesQuery } },
    async (request, reply) => register(PLATFORM_SUPPLIER, request.query, reply),
  )
}
