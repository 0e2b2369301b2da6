// Invoices (/organizer/invoices, organizers): the invoices and credit notes issued for the
// organizer's tickets between two days (this month unless changed), in number order, with their
// totals, and the same as a CSV file. Admins see the platform's own register the same way
// (/admin/invoices: the booking fee's documents).
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import type { DocumentMoney, InvoiceDocument } from '../../../../contracts/billing.ts'
import {
  type DocumentDays,
  fetchInvoices,
  fetchInvoicesCsv,
  type Register as RegisterOf,
} from '../../api/billing.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { FormControl } from '../../ui/form-control.tsx'
import { formatDate } from '../../ui/format.ts'
import { stateLabel } from '../../ui/gst-states.ts'
import { formatAmount } from '../../ui/money.ts'
import { saveFile } from '../../ui/save-file.ts'
import { ScrollRegion } from '../../ui/scroll-region.tsx'
import { notify } from '../../ui/toasts.ts'
import { billingTexts, invoiceTexts } from './billing-texts.ts'
import { isRange, registerTotals, signedMoney, thisMonth } from './invoice-register.ts'
import './billing.css'

const columns = invoiceTexts.columns

function Amounts({ money }: { money: DocumentMoney }) {
  return (
    <>
      <td className="amount">{formatAmount(money.taxableValue)}</td>
      <td className="amount">{formatAmount(money.cgst)}</td>
      <td className="amount">{formatAmount(money.sgst)}</td>
      <td className="amount">{formatAmount(money.igst)}</td>
      <td className="amount">{formatAmount(money.total)}</td>
    </>
  )
}

function DocumentRow({ document }: { document: InvoiceDocument }) {
  return (
    <tr data-kind={document.kind}>
      <th scope="row">{document.number}</th>
      <td>{formatDate(document.date)}</td>
      <td>
        {invoiceTexts.kinds[document.kind] ?? document.kind}
        {document.against && <span className="billing-against"> ({document.against})</span>}
      </td>
      <td className="billing-buyer">
        {document.buyer.name}
        <span className="billing-email">{document.buyer.email}</span>
      </td>
      <td>{stateLabel(document.placeOfSupply)}</td>
      <Amounts money={signedMoney(document)} />
    </tr>
  )
}

function Register({ documents, days }: { documents: InvoiceDocument[]; days: DocumentDays }) {
  if (documents.length === 0) return <p className="empty-text">{invoiceTexts.empty}</p>
  const caption = invoiceTexts.caption(formatDate(days.from), formatDate(days.to))
  // ten columns: wider than a phone, whose reader is told it scrolls sideways
  return (
    <ScrollRegion label={caption}>
      <table className="billing-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{columns.number}</th>
            <th scope="col">{columns.date}</th>
            <th scope="col">{columns.kind}</th>
            <th scope="col">{columns.buyer}</th>
            <th scope="col">{columns.placeOfSupply}</th>
            <th scope="col" className="amount">
              {columns.taxableValue}
            </th>
            <th scope="col" className="amount">
              {columns.cgst}
            </th>
            <th scope="col" className="amount">
              {columns.sgst}
            </th>
            <th scope="col" className="amount">
              {columns.igst}
            </th>
            <th scope="col" className="amount">
              {columns.total}
            </th>
          </tr>
        </thead>
        <tbody>
          {documents.map((document) => (
            <DocumentRow key={`${document.kind}-${document.number}`} document={document} />
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={5}>
              {invoiceTexts.totals}
            </th>
            <Amounts money={registerTotals(documents)} />
          </tr>
        </tfoot>
      </table>
    </ScrollRegion>
  )
}

export function InvoicesScreen() {
  return <InvoiceRegister register="organizer" />
}

/** the platform's booking fee invoices and credit notes, for admins */
export function PlatformInvoicesScreen() {
  return <InvoiceRegister register="platform" />
}

function InvoiceRegister({ register }: { register: RegisterOf }) {
  const [days, setDays] = useState<DocumentDays>(() => thisMonth(new Date()))
  const [downloading, setDownloading] = useState(false)
  const headingId = useId()
  const valid = isRange(days)
  const documents = useQuery({
    queryKey: [`${register}-invoices`, days.from, days.to],
    queryFn: () => fetchInvoices(days, register),
    enabled: valid,
    placeholderData: keepPreviousData,
  })

  const download = async () => {
    setDownloading(true)
    try {
      const file = await fetchInvoicesCsv(days, register)
      saveFile(file.blob, file.name)
    } catch (error) {
      notify.error(messageOr(invoiceTexts.downloadFailed)(error))
    } finally {
      setDownloading(false)
    }
  }

  const dayInput = (field: keyof DocumentDays, label: string) => (
    <FormControl label={label} error={field === 'to' && !valid ? invoiceTexts.badRange : null}>
      {(control) => (
        <input
          {...control}
          type="date"
          value={days[field]}
          required
          onChange={(change) => setDays((previous) => ({ ...previous, [field]: change.target.value }))}
        />
      )}
    </FormControl>
  )

  return (
    <section className="page billing-page invoices-page" aria-labelledby={headingId}>
      <header className="billing-header">
        <h1 id={headingId}>
          {register === 'platform' ? invoiceTexts.platformHeading : invoiceTexts.heading}
        </h1>
        {register === 'organizer' && <Link to="/organizer/billing">{billingTexts.billingLink}</Link>}
      </header>
      <div className="billing-filters">
        {dayInput('from', invoiceTexts.from)}
        {dayInput('to', invoiceTexts.to)}
        <button
          type="button"
          onClick={() => void download()}
          disabled={downloading || !valid}
          aria-busy={downloading}
        >
          {downloading ? invoiceTexts.downloading : invoiceTexts.download}
        </button>
      </div>
      {valid && (
        <Fetched
          query={documents}
          loading={<p role="status">Loading...</p>}
          failed={messageOr(invoiceTexts.loadFailed)}
          frame={(content) => content}
        >
          {(shown) => (
            <div aria-busy={documents.isPlaceholderData}>
              <Register documents={shown} days={days} />
            </div>
          )}
        </Fetched>
      )}
    </section>
  )
}
