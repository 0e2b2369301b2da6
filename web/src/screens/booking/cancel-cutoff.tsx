// Until when a ticket can be cancelled with its refund (CANCEL_CUTOFF_HOURS before the start), in
// the event's zone and labelled, as the event's own time beside it.
import { formatInstantIn } from '../../ui/format.ts'
import { useEventZone } from '../../ui/use-site.ts'

export function cancellationClosed(cancellableUntil: string | null | undefined, now = Date.now()): boolean {
  return Boolean(cancellableUntil) && Date.parse(cancellableUntil as string) <= now
}

export function CancelCutoff({ cancellableUntil }: { cancellableUntil?: string | null }) {
  const zone = useEventZone()
  if (!cancellableUntil) return null
  const when = formatInstantIn(cancellableUntil, zone)
  return (
    <p className="ticket-cutoff">
      {cancellationClosed(cancellableUntil) ? `Cancellation closed on ${when}` : `Cancellable until ${when}`}
    </p>
  )
}
