// An inquiry's status and its moments, as every support screen shows them.
import type { InquiryView } from '../../../../contracts/support.ts'
import { formatInstant } from '../../ui/format.ts'

export function InquiryStatus({ status }: { status: InquiryView['status'] }) {
  return (
    <span
      className={status === 'Replied' ? 'inquiry-status status-replied' : 'inquiry-status status-waiting'}
    >
      {status}
    </span>
  )
}

/** a stored moment in the viewer's zone: 20 Dec 2026, 7:30 pm */
export function Moment({ at }: { at: string }) {
  return <time dateTime={at}>{formatInstant(at)}</time>
}
