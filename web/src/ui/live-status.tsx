// The live connection's state for people: 'Reconnecting…' while it is down, 'Updated' for a moment
// once it is back (screens refetch on every reconnection), nothing otherwise. Screens that show
// live counts add LiveCountsNote next to them, so a count is never shown as current while stale.
import { useEffect, useRef, useState } from 'react'
import { useLiveStatus } from '../live/use-live.ts'

const UPDATED_MS = 4000

export function LiveStatusBadge() {
  const status = useLiveStatus()
  const previous = useRef(status)
  const [updated, setUpdated] = useState(false)

  useEffect(() => {
    const was = previous.current
    previous.current = status
    if (status !== 'connected') {
      setUpdated(false)
      return
    }
    if (was !== 'reconnecting') return
    setUpdated(true)
    const hide = setTimeout(() => setUpdated(false), UPDATED_MS)
    return () => clearTimeout(hide)
  }, [status])

  const text = status === 'reconnecting' ? 'Reconnecting…' : updated ? 'Updated' : ''
  // The live region stays in the page so that screen readers announce each change.
  return (
    <div className={`live-status live-status-${status === 'reconnecting' ? 'down' : 'up'}`} role="status">
      {text}
    </div>
  )
}

/** Next to live counts: says they may be stale while the connection is down. */
export function LiveCountsNote() {
  const status = useLiveStatus()
  if (status !== 'reconnecting') return null
  return <p className="live-counts-note">Reconnecting… counts may be out of date</p>
}
