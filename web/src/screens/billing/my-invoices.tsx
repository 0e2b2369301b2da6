// Your invoices (/account/invoices, any signed-in account): every invoice, bill of supply and
// credit note issued to the account as a buyer, the booking fee's too, newest first, each with its
// PDF. A ticket transferred since keeps its invoice here: the documents are the buyer's, whoever
// holds the ticket now. A page of 50 at a time: Show more invoices brings the next.
import { useInfiniteQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import type { BuyerDocument } from '../../../../contracts/billing.ts'
import { fetchTicketDocument, myInvoicesQuery } from '../../api/billing.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { formatDate } from '../../ui/format.ts'
import { formatAmount } from '../../ui/money.ts'
import { saveFile } from '../../ui/save-file.ts'
import { ScrollRegion } from '../../ui/scroll-region.tsx'
import { notify } from '../../ui/toasts.ts'
import { invoiceTexts, myInvoiceTexts } from './billing-texts.ts'
import './billing.css'

/** a document's key: its ticket's, what it is for and its series (numbers repeat across organizers) */
const keyOf = (d: BuyerDocument) =>
  `${d.ticketId}-${d.of}-${d.kind === 'credit-note' ? 'credit-note' : 'invoice'}`

export function MyInvoicesScreen() {
  const documents = useInfiniteQuery(myInvoicesQuery())
  const headingId = useId()
  const [downloading, setDownloading] = useState<string | null>(null)

  const download = async (document: BuyerDocument) => {
    setDownloading(keyOf(document))
    try {
      const kind = document.kind === 'credit-note' ? 'credit-note' : 'invoice'
      const file = await fetchTicketDocument(document.ticketId, kind, document.of)
      saveFile(file.blob, file.name)
    } catch (error) {
      notify.error(messageOr(myInvoiceTexts.downloadFailed)(error))
    } finally {
      setDownloading(null)
    }
  }

  return (
    <section className="page billing-page my-invoices-page" aria-labelledby={headingId}>
      <header className="billing-header">
        <h1 id={headingId}>{myInvoiceTexts.heading}</h1>
        <Link to="/registrations">{myInvoiceTexts.registrationsLink}</Link>
      </header>
      <Fetched
        query={documents}
        loading={<p role="status">Loading...</p>}
        failed={messageOr(myInvoiceTexts.loadFailed)}
      >
        {({ pages }) => {
          // a document issued meanwhile moves one across a page's edge: shown once
          const shown = [...new Map(pages.flat().map((d) => [keyOf(d), d])).values()]
          return shown.length === 0 ? (
            <p className="empty-text">{myInvoiceTexts.empty}</p>
          ) : (
            <>
              <ScrollRegion label={myInvoiceTexts.table}>
                <table className="billing-table">
                  <thead>
                    <tr>
                      <th scope="col">{invoiceTexts.columns.number}</th>
                      <th scope="col">{invoiceTexts.columns.date}</th>
                      <th scope="col">{invoiceTexts.columns.kind}</th>
                      <th scope="col">{myInvoiceTexts.event}</th>
                      <th scope="col">{myInvoiceTexts.issuedBy}</th>
                      <th scope="col" className="amount">
                        {invoiceTexts.columns.total}
                      </th>
                      <th scope="col">
                        <span className="visually-hidden">{myInvoiceTexts.file}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((document) => (
                      <tr key={keyOf(document)} data-kind={document.kind}>
                        <th scope="row">{document.number}</th>
                        <td>{formatDate(document.date)}</td>
                        <td>
                          {invoiceTexts.kinds[document.kind] ?? document.kind}
                          {document.of === 'fee' && ` · ${myInvoiceTexts.fee}`}
                          {document.against && <span className="billing-against"> ({document.against})</span>}
                        </td>
                        <td>{document.event.title}</td>
                        <td>{document.supplier.legalName}</td>
                        <td className="amount">{formatAmount(document.totals.total)}</td>
                        <td>
                          <button
                            type="button"
                            className="button-secondary"
                            onClick={() => void download(document)}
                            disabled={downloading !== null}
                            aria-busy={downloading === keyOf(document)}
                            aria-label={myInvoiceTexts.downloadLabel(document.number)}
                          >
                            {downloading === keyOf(document)
                              ? myInvoiceTexts.downloading
                              : myInvoiceTexts.pdf}
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
              {documents.hasNextPage && (
                <p className="billing-more">
                  <button
                    type="button"
                    className="button-secondary"
                    disabled={documents.isFetchingNextPage}
                    onClick={() => void documents.fetchNextPage()}
                  >
                    {documents.isFetchingNextPage ? myInvoiceTexts.loadingMore : myInvoiceTexts.showMore}
                  </button>
                </p>
              )}
            </>
          )
        }}
      </Fetched>
    </section>
  )
}
