// A scan's result over the whole screen, to be read at arm's length: green for admitted, red for
// anything else, with the holder, the ticket type, a seated pass's seat and the admission. It shows
// the server's answer as soon as the scan is synced, says whether it has one yet, and goes by itself
// (a refusal stays longer) or with a tap. Focus stays where it was: a door typing codes (or a
// keyboard-like scanner) types the next one straight away.
import { useEffect, useRef } from 'react'
import { seatText } from '../../../../contracts/seating.ts'
import { formatInstantIn } from '../../ui/format.ts'
import { resultOf, type ScanRecord } from './scan-log.ts'
import { checkinTexts, resultTexts } from './texts.ts'

const ADMITTED_MS = 2500
const REFUSED_MS = 6000

export function ScanResultScreen({
  record,
  opensAt,
  zone,
  onDismiss,
}: {
  record: ScanRecord
  /** when the door opens, if the pass list says */
  opensAt: string | null
  /** the event's zone: the door's times in it, labelled, as the event's own (7:30 pm IST), wherever
   * the device's clock is set (unknown: the device's, labelled) */
  zone?: string | undefined
  onDismiss(): void
}) {
  const result = resultOf(record)
  const admitted = result === 'admitted'
  const holder = record.server?.holder ?? record.local.holder
  const ticketType = record.server?.ticketType ?? record.local.ticketType
  // the server's seat once it answered, else the pass list's ("Stalls, Row F, Seat 12")
  const seat = record.server?.seat ? seatText(record.server.seat) : (record.local.seat ?? null)
  const firstAdmitted = record.server?.admittedAt ?? record.local.admittedAt

  const dismiss = useRef(onDismiss)
  dismiss.current = onDismiss
  // the time starts again when the server's answer turns it from green to red, or back
  useEffect(() => {
    const timer = setTimeout(() => dismiss.current(), admitted ? ADMITTED_MS : REFUSED_MS)
    return () => clearTimeout(timer)
  }, [admitted])

  return (
    <div
      className={`scan-result scan-result-${admitted ? 'admitted' : 'refused'}`}
      role="alert"
      data-result={result}
      data-confirmed={record.server ? 'yes' : 'no'}
    >
      <p className="scan-result-word">{resultTexts[result]}</p>
      {holder && <p className="scan-result-holder">{holder}</p>}
      {ticketType && <p className="scan-result-type">{ticketType}</p>}
      {seat && <p className="scan-result-seat">{seat}</p>}
      {record.local.admission !== null && (
        <p className="scan-result-admission">Admission {record.local.admission}</p>
      )}
      {result === 'already-admitted' && firstAdmitted && (
        <p className="scan-result-when">First admitted {formatInstantIn(firstAdmitted, zone)}</p>
      )}
      {result === 'too-early' && (
        <p className="scan-result-when">
          {opensAt ? `${checkinTexts.opensAt} ${formatInstantIn(opensAt, zone)}.` : checkinTexts.notOpenYet}
        </p>
      )}
      <p className="scan-result-note">{record.server ? checkinTexts.confirmed : checkinTexts.onDevice}</p>
      <button type="button" className="scan-result-next" onClick={onDismiss}>
        {checkinTexts.nextScan}
      </button>
    </div>
  )
}
