// A ticket's passes (/ticket/{id}, issue 16): one large QR code per admission, to show at the door
// or print (one pass to a page, the void ones left out), each with its admission number and
// whether it is valid, was used (when) or is void (a transfer or cancel). The codes are the
// server's signed pass codes; the QR images are made here by the qrcode library.
import { useQuery } from '@tanstack/react-query'
import { getRouteApi, Link } from '@tanstack/react-router'
import QRCode from 'qrcode'
import { useEffect, useState } from 'react'
import type { TicketView } from '../../../../contracts/booking.ts'
import type { TicketPass } from '../../api/checkin.ts'
import { passesQuery, ticketQuery } from '../../api/queries.ts'
import { useSession } from '../../session/use-session.ts'
import { FetchError, messageOr } from '../../ui/fetched.tsx'
import { formatInstant } from '../../ui/format.ts'
import { Loading } from '../../ui/loading.tsx'
import { ticketNumber } from '../../ui/ticket-number.ts'
import { TicketLines } from './ticket-lines.tsx'
import './booking.css'
import './ticket-passes.css'
import { seatLine } from '../../ui/seat-label.ts'

const ticketRoute = getRouteApi('/_signed-in/ticket/$ticketId')

export const passTexts = {
  heading: 'Your Passes',
  failed: 'Ticket not found.',
  print: 'Print passes',
  none: 'This ticket has no passes yet: they are issued with the ticket.',
} as const

const statusWords: Record<TicketPass['status'], string> = {
  valid: 'Valid',
  admitted: 'Admitted',
  void: 'Void',
}

const statusNote = (pass: TicketPass): string =>
  pass.status === 'valid'
    ? ': show this code at the entrance.'
    : pass.status === 'void'
      ? ': this pass no longer admits anyone.'
      : pass.admittedAt
        ? ` at ${formatInstant(pass.admittedAt)}`
        : ''

export function TicketPassesScreen() {
  const { ticketId } = ticketRoute.useParams()
  const ticket = useQuery(ticketQuery(ticketId))
  const passes = useQuery(passesQuery(ticketId))
  if (ticket.data && passes.data)
    return (
      <TicketPasses ticket={ticket.data.ticket} eventTitle={ticket.data.eventTitle} passes={passes.data} />
    )
  if (passes.isError || ticket.isError)
    return (
      <section className="page">
        <FetchError message={messageOr(passTexts.failed)(passes.error ?? ticket.error)} />
      </section>
    )
  return <Loading />
}

function TicketPasses({
  ticket,
  eventTitle,
  passes,
}: {
  ticket: TicketView
  eventTitle: string | null
  passes: TicketPass[]
}) {
  const { user } = useSession()
  const back = user?.role === 'user' ? '/dashboard' : '/registrations'
  const printable = passes.filter((pass) => pass.status !== 'void')
  const lastPrinted = printable.at(-1)
  return (
    <section className="page ticket-passes-page">
      <header className="card ticket-passes-header">
        <h1>{passTexts.heading}</h1>
        <dl className="facts">
          {eventTitle && (
            <>
              <dt>Event:</dt>
              <dd>{eventTitle}</dd>
            </>
          )}
          <TicketLines ticket={ticket} />
        </dl>
        <div className="form-actions">
          {printable.length > 0 && (
            <button type="button" onClick={() => window.print()}>
              {passTexts.print}
            </button>
          )}
          <Link to={back} className="button button-secondary">
            Back
          </Link>
        </div>
      </header>
      {passes.length === 0 ? (
        <p className="empty-text">{passTexts.none}</p>
      ) : (
        <ol className="pass-list">
          {passes.map((pass) => (
            <li
              key={pass._id}
              className={`pass-item pass-item-${pass.status}${pass !== lastPrinted && pass.status !== 'void' ? ' pass-page-break' : ''}`}
            >
              <PassCard pass={pass} quantity={passes.length} ticket={ticket} eventTitle={eventTitle} />
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** the QR image of a code, as an SVG data address (sharp at any size, printed too) */
function useQrImage(code: string): string | null {
  const [image, setImage] = useState<string | null>(null)
  useEffect(() => {
    let current = true
    QRCode.toString(code, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }).then(
      (svg) => {
        if (current) setImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`)
      },
      () => {
        if (current) setImage(null)
      },
    )
    return () => {
      current = false
    }
  }, [code])
  return image
}

function PassCard({
  pass,
  quantity,
  ticket,
  eventTitle,
}: {
  pass: TicketPass
  quantity: number
  ticket: TicketView
  eventTitle: string | null
}) {
  const image = useQrImage(pass.code)
  const label = `Admission ${pass.admission} of ${quantity}`
  return (
    <article className="card pass-card" aria-label={label} data-status={pass.status}>
      <header className="pass-card-header">
        {eventTitle && <h2>{eventTitle}</h2>}
        <p className="pass-admission">{label}</p>
        <p className="pass-type">
          {ticket.ticketType} · Ticket No. {ticketNumber(ticket._id)}
        </p>
        {pass.seat && <p className="pass-seat">{seatLine(pass.seat)}</p>}
      </header>
      {pass.status !== 'void' && (
        <div className="pass-qr">
          {image ? (
            <img src={image} alt={`QR code of admission ${pass.admission}`} />
          ) : (
            <div className="pass-qr-placeholder" aria-hidden="true" />
          )}
        </div>
      )}
      <p className={`pass-status pass-status-${pass.status}`}>
        <strong>{statusWords[pass.status]}</strong>
        {statusNote(pass)}
      </p>
      {pass.status !== 'void' && <p className="pass-code">{pass.code}</p>}
    </article>
  )
}
