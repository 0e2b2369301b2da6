// A ticket's bills to download (its invoice, its credit note): fetched with the account's token as
// a PDF and saved; when there is none the server says why, in a toast.
import { useState } from 'react'
import type { Registration } from '../../../../contracts/booking.ts'
import { fetchTicketDocument, type TicketDocumentKind } from '../../api/billing.ts'
import { messageOr } from '../../ui/fetched.tsx'
import { saveFile } from '../../ui/save-file.ts'
import { notify } from '../../ui/toasts.ts'
import { documentsOf, documentTexts } from './ticket-documents.ts'

export function TicketDocumentButtons({ ticket }: { ticket: Registration }) {
  const [downloading, setDownloading] = useState<TicketDocumentKind | null>(null)
  const kinds = documentsOf(ticket)
  if (kinds.length === 0) return null

  const download = async (kind: TicketDocumentKind) => {
    setDownloading(kind)
    try {
      const file = await fetchTicketDocument(ticket._id, kind)
      saveFile(file.blob, file.name)
    } catch (error) {
      notify.error(messageOr(documentTexts.failed)(error))
    } finally {
      setDownloading(null)
    }
  }

  return (
    <>
      {kinds.map((kind) => (
        <button
          key={kind}
          type="button"
          className="button-secondary"
          onClick={() => void download(kind)}
          disabled={downloading !== null}
          aria-busy={downloading === kind}
        >
          {downloading === kind ? documentTexts.downloading : documentTexts[kind]}
        </button>
      ))}
    </>
  )
}
