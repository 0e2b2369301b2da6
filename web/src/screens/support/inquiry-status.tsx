// An inquiry's status and its moments, as every support screen shows them.
import type { InquiryView } from '../../../../contracts/support.ts'

export function InquiryStatus({ status }: { status: InquiryView['status'] }) {
  return (
    <span
      className={status === 'Replied' ? 'inquiry-status status-replied' : 'inquiry-status status-waiting'}
    >
      {status}
    </span>
  )
}

/** a stored moment in the viewer's locale */
export function Moment({ at }: { at: string }) {
  const date = new Date(at)
  return <time dateTime={at}>{Number.isNaN(date.getTime()) ? at : date.toLocaleString()}</time>
}
