// Calls of taxes and invoices (API.md, "Taxes and invoices"): the organizer's billing profile, the
// platform's booking fee (admins), the
// GST rates a ticket type may have, a ticket's invoice and credit note (a PDF, or JSON), and the
// organizer's invoices over some days (JSON, or CSV). Files need the Bearer header, so they are
// fetched here and handed over as blobs.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import {
  type BillingBody,
  BillingView,
  type BookingFeeBody,
  BookingFeeView,
  BUYER_DOCUMENT_PAGE_LIMIT,
  type BuyerDocument,
  type DocumentOf,
  type InvoiceDocument,
  TaxRatesView,
} from '../../../contracts/billing.ts'
import { API_BASE, ApiError, api, TOKEN_KEY } from './client.ts'

/** GET /organizer/billing; null while the organizer has saved none (a 404) */
export async function fetchBillingProfile(): Promise<BillingView | null> {
  try {
    return v.parse(BillingView, await api.get<unknown>('/organizer/billing'))
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

/** PUT /organizer/billing: the profile as saved */
export const saveBillingProfile = async (profile: BillingBody): Promise<BillingView> =>
  v.parse(BillingView, await api.put<unknown>('/organizer/billing', profile))

/** GET /admin/booking-fee (admins): the fee charged now */
export const fetchBookingFee = async (): Promise<BookingFeeView> =>
  v.parse(BookingFeeView, await api.get<unknown>('/admin/booking-fee'))

/** PUT /admin/booking-fee: the fee as saved */
export const saveBookingFee = async (fee: BookingFeeBody): Promise<BookingFeeView> =>
  v.parse(BookingFeeView, await api.put<unknown>('/admin/booking-fee', fee))

/** the GST rates a ticket type may have, and the platform's booking fee if it charges one */
export type TaxRatesReply = v.InferOutput<typeof TaxRatesView>

/** GET /tax-rates (public) */
export const fetchTaxRates = async (): Promise<TaxRatesReply> =>
  v.parse(TaxRatesView, await api.get<unknown>('/tax-rates'))

/** GET /tax-rates as every screen reads it: kept an hour (the booking fee's screen clears it on a save) */
export const taxRatesQuery = () =>
  queryOptions({ queryKey: ['tax-rates'], queryFn: fetchTaxRates, staleTime: 60 * 60_000 })

const storedToken = (): string | null => {
  try {
    return localStorage.getItem(TOKEN_KEY)
  } catch {
    return null
  }
}

/** the name a reply's Content-Disposition gives its file, if any */
function fileNameOf(response: Response): string | null {
  const disposition = response.headers.get('Content-Disposition') ?? ''
  const quoted = /filename="([^"]+)"/i.exec(disposition)
  if (quoted?.[1]) return quoted[1]
  const bare = /filename=([^;\s]+)/i.exec(disposition)
  return bare?.[1] ?? null
}

/** a file of the API, fetched with the stored token; a refusal throws an ApiError with its words */
async function fetchFile(path: string, accept: string): Promise<{ blob: Blob; name: string | null }> {
  const token = storedToken()
  let response: Response
  try {
    response = await fetch(`${API_BASE}${path}`, {
      headers: { Accept: accept, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      credentials: 'include',
    })
  } catch {
    throw new ApiError('The server could not be reached.', 0)
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null)
    const message =
      typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
        ? (body as { message: string }).message
        : `Request failed (${response.status}).`
    throw new ApiError(message, response.status, body)
  }
  return { blob: await response.blob(), name: fileNameOf(response) }
}

export type TicketDocumentKind = 'invoice' | 'credit-note'

/** GET /ticket/{id}/invoice or /credit-note: the PDF (the tickets' or, `of` 'fee', the booking
 * fee's), and the name to save it under */
export async function fetchTicketDocument(
  ticketId: string,
  kind: TicketDocumentKind,
  of: DocumentOf = 'tickets',
): Promise<{ blob: Blob; name: string }> {
  const query = of === 'fee' ? '?of=fee' : ''
  const file = await fetchFile(`/ticket/${encodeURIComponent(ticketId)}/${kind}${query}`, 'application/pdf')
  return { blob: file.blob, name: file.name ?? `${kind}-${ticketId}.pdf` }
}

/** GET /account/invoices?page=: a page of the documents issued to the account as a buyer, newest
 * first, BUYER_DOCUMENT_PAGE_LIMIT of them (fewer on the last page) */
export const fetchMyInvoicePage = async (page: number): Promise<BuyerDocument[]> => {
  const reply = await api.get<unknown>(`/account/invoices?page=${page}&limit=${BUYER_DOCUMENT_PAGE_LIMIT}`)
  if (!Array.isArray(reply)) throw new ApiError('Your invoices could not be read.', 200, reply)
  return reply as BuyerDocument[]
}

/** the account's documents as a buyer, a page at a time (the next asked for while the last was full) */
export const myInvoicesQuery = () =>
  infiniteQueryOptions({
    queryKey: ['my-invoices'] as const,
    queryFn: ({ pageParam }) => fetchMyInvoicePage(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: BuyerDocument[], pages: BuyerDocument[][]) =>
      last.length < BUYER_DOCUMENT_PAGE_LIMIT ? undefined : pages.length + 1,
  })

/** the days asked for, YYYY-MM-DD each, both included */
export type DocumentDays = { from: string; to: string }

const daysQuery = (days: DocumentDays, csv = false) =>
  new URLSearchParams({ from: days.from, to: days.to, ...(csv ? { format: 'csv' } : {}) })

/** whose register: the organizer's own (GET /organizer/invoices), or the platform's booking fee
 * documents (GET /admin/invoices, admins) */
export type Register = 'organizer' | 'platform'

const registerPath = (register: Register) =>
  register === 'platform' ? '/admin/invoices' : '/organizer/invoices'

/** a register's invoices and credit notes of those days, in number order */
export const fetchInvoices = async (
  days: DocumentDays,
  register: Register = 'organizer',
): Promise<InvoiceDocument[]> => {
  const reply = await api.get<unknown>(`${registerPath(register)}?${daysQuery(days)}`)
  if (!Array.isArray(reply)) throw new ApiError('The invoices could not be read.', 200, reply)
  return reply as InvoiceDocument[]
}

/** the same as a spreadsheet (?format=csv) */
export async function fetchInvoicesCsv(
  days: DocumentDays,
  register: Register = 'organizer',
): Promise<{ blob: Blob; name: string }> {
  const file = await fetchFile(`${registerPath(register)}?${daysQuery(days, true)}`, 'text/csv')
  return { blob: file.blob, name: file.name ?? `invoices-${days.from}-to-${days.to}.csv` }
}
