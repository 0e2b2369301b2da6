// An event's door on its organizer's page (issue 16): admitted / expected per ticket type, the
// admissions per minute, the double entries the door's syncs revealed, and who may scan; a link
// to the check-in screen. Live: every scan's summary is pushed (`checkin-summary`) and set in
// place (live/follow.ts), whichever device it came from.
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Suspense, useId } from 'react'
import type { CheckinSummary } from '../../api/checkin.ts'
import { checkinSummaryQuery } from '../../api/queries.ts'
import { lazyRetry } from '../../ui/retry-import.ts'
import '../../ui/analytics/analytics.css'
import { FetchError } from '../../ui/fetched.tsx'
import { Figure } from '../../ui/figure.tsx'
import { formatInstant } from '../../ui/format.ts'
import { DoorStaff } from './door-staff.tsx'

const AdmissionsChart = lazyRetry(() => import('../../ui/analytics/admissions-chart.tsx'))

export const checkinSectionTexts = {
  heading: 'Check-in',
  open: 'Open check-in screen',
  failed: 'Error fetching check-in figures',
  noAdmissions: 'No admissions yet.',
  doubleEntries: 'Double entries',
  noDoubleEntries: 'No double entries.',
} as const

/** a pass id (`${ticketId}.${admission}.${version}`) as people read it: ticket number, admission */
function passLabel(passId: string): string {
  const match = /^(.+)\.(\d+)\.\d+$/.exec(passId)
  if (!match) return passId
  return `${(match[1] ?? '').slice(-8).toUpperCase()} · Admission ${match[2]}`
}

/** a device's id, short: the end of its random part */
const deviceLabel = (device: string | null) => (device ? device.slice(-6).toUpperCase() : '—')

export function EventCheckin({ eventId }: { eventId: string }) {
  const headingId = useId()
  const summary = useQuery(checkinSummaryQuery(eventId))
  const shown = summary.data
  return (
    <section
      className="event-checkin event-analytics"
      aria-labelledby={headingId}
      aria-busy={summary.isPending}
    >
      <div className="event-checkin-header">
        <h3 id={headingId}>{checkinSectionTexts.heading}</h3>
        <Link to="/checkin/$eventId" params={{ eventId }} className="button">
          {checkinSectionTexts.open}
        </Link>
      </div>
      {shown ? (
        <Admissions summary={shown} />
      ) : summary.isError ? (
        <FetchError message={checkinSectionTexts.failed} />
      ) : (
        <p className="analytics-empty">Loading check-in figures...</p>
      )}
      <DoorStaff eventId={eventId} />
    </section>
  )
}

function Admissions({ summary }: { summary: CheckinSummary }) {
  const admitted = summary.ticketTypes.reduce((sum, row) => sum + row.admitted, 0)
  const expected = summary.ticketTypes.reduce((sum, row) => sum + row.expected, 0)
  return (
    <>
      <div className="analytics-figures analytics-totals">
        <Figure label="Admitted" value={`${admitted} / ${expected}`} />
        {summary.ticketTypes.map((row) => (
          <Figure key={row.ticketType} label={row.ticketType} value={`${row.admitted} / ${row.expected}`} />
        ))}
      </div>
      {summary.perMinute.length === 0 ? (
        <p className="analytics-empty">{checkinSectionTexts.noAdmissions}</p>
      ) : (
        <Suspense fallback={<p className="analytics-empty">Loading charts...</p>}>
          <div className="analytics-charts">
            <AdmissionsChart perMinute={summary.perMinute} />
          </div>
        </Suspense>
      )}
      <DoubleEntries entries={summary.doubleEntries} />
    </>
  )
}

function DoubleEntries({ entries }: { entries: CheckinSummary['doubleEntries'] }) {
  const headingId = useId()
  return (
    <>
      <h4 id={headingId}>{checkinSectionTexts.doubleEntries}</h4>
      {entries.length === 0 ? (
        <p className="analytics-empty">{checkinSectionTexts.noDoubleEntries}</p>
      ) : (
        <div className="table-scroll">
          <table className="table-stack" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">Holder</th>
                <th scope="col">Pass</th>
                <th scope="col">Scanned</th>
                <th scope="col">Device</th>
                <th scope="col">First admitted</th>
                <th scope="col">First device</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={`${entry.passId} ${entry.device} ${entry.scannedAt}`}>
                  <td data-label="Holder">{entry.holder ?? '—'}</td>
                  <td data-label="Pass">{passLabel(entry.passId)}</td>
                  <td data-label="Scanned">{formatInstant(entry.scannedAt)}</td>
                  <td data-label="Device" title={entry.device}>
                    {deviceLabel(entry.device)}
                  </td>
                  <td data-label="First admitted">
                    {entry.firstAdmittedAt ? formatInstant(entry.firstAdmittedAt) : '—'}
                  </td>
                  <td data-label="First device" title={entry.firstDevice ?? undefined}>
                    {deviceLabel(entry.firstDevice)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}
