// The live connection's state for people: 'Reconnecting…' while it is down, the server's reason
// while it turns this address away for now (too many tabs, too many messages: it is asked again by
// itself), 'Updated' for a moment once it is back (screens refetch on every reconnection), nothing
// otherwise. Screens that show live counts add LiveCountsNote next to them, so a count is never
// shown as current while stale.
import { useEffect, useRef, useState } from 'react'
import { useLiveRefusal, useLiveStatus } from '../live/use-live.ts'

const UPDATED_MS = 4000

export function LiveStatusBadge() {
  const status = useLiveStatus()
  const refusal = useLiveRefusal()
  const previous = useRef(status)
  const [updated, setUpdated] = useState(false)

  useEffect(() => {
    const was = previous.current
    previous.current = status
    if (status !== 'connected') {
      setUpdated(false)
      return
    }
    if (was !== 'reconnecting' && was !== 'refused') return
    setUpdated(true)
    const hide = setTimeout(() => setUpdated(false), UPDATED_MS)
    return () => clearTimeout(hide)
  }, [status])

  const down = status === 'reconnecting' || status === 'refused'
  const text =
    status === 'refused'
      ? (refusal ?? 'Reconnecting…')
      : status === 'reconnecting'
        ? 'Reconnecting…'
        : updated
          ? 'Updated'
          : ''
  // The live region stays in the page so that screen readers announce each change.
  return (
    <div
      className={`live-status live-status-${down ? 'down' : 'up'}${status === 'refused' ? ' live-status-refused' : ''}`}
      role="status"
    >
      {text}
    </div>
  )
}

/** Next to live counts: says they may be stale while the connection is down. */
export function LiveCountsNote() {
  const status = useLiveStatus()
  if (status === 'refused')
    return <p className="live-counts-note">Live updates paused… counts may be out of date</p>
  if (status !== 'reconnecting') return null
  return <p className="live-counts-note">Reconnecting… counts may be out of date</p>
}
