// Until when a ticket can be cancelled with its refund (CANCEL_CUTOFF_HOURS before the start).
import { formatInstant } from '../../ui/format.ts'

export function cancellationClosed(cancellableUntil: string | null | undefined, now = Date.now()): boolean {
  return Boolean(cancellableUntil) && Date.parse(cancellableUntil as string) <= now
}

export function CancelCutoff({ cancellableUntil }: { cancellableUntil?: string | null }) {
  if (!cancellableUntil) return null
  const when = formatInstant(cancellableUntil)
  return (
    <p className="ticket-cutoff">
      {cancellationClosed(cancellableUntil) ? `Cancellation closed on ${when}` : `Cancellable until ${when}`}
    </p>
  )
}
