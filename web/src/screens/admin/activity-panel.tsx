// The admins' Activity panel: the latest facts as they happen (sign-ups, submissions, reviews,
// sales, cancels, transfers, inquiries), newest first, one readable line each, read from the
// activity feed. The feed is resumed from the last position seen, also when the panel is shown
// again after a visit elsewhere.
import { memo, useEffect, useId, useState } from 'react'
import type { ActivityItem } from '../../../../contracts/activity.ts'
import { useSession } from '../../session/use-session.ts'
import { activityFeedUrl, type FeedState, type FeedStatus, openActivityFeed } from './activity-feed.ts'
import './activity-panel.css'
import { formatInstant } from '../../ui/format.ts'

const KEEP = 50

/** what this page has seen so far, so that a remounted panel resumes instead of starting over */
let remembered: { position: number; items: ActivityItem[] } = { position: 0, items: [] }

const statusText: Record<FeedStatus, string> = {
  connecting: 'Connecting...',
  'catching-up': 'Catching up...',
  live: 'Live',
  reconnecting: 'Reconnecting...',
  refused: 'Unavailable',
}

const when = (at: string): string => formatInstant(at)

/** one fact's line; a line once drawn is not drawn again when newer facts arrive */
const ActivityLine = memo(function ActivityLine({ item }: { item: ActivityItem }) {
  return (
    <li className="activity-item" data-type={item.type}>
      <time dateTime={item.at}>{when(item.at)}</time>
      <span className="activity-summary">{item.summary}</span>
    </li>
  )
})

export function ActivityPanel() {
  const { token } = useSession()
  const headingId = useId()
  const [feed, setFeed] = useState<FeedState>(() => ({
    items: remembered.items,
    position: remembered.position,
    status: 'connecting',
    refusal: null,
  }))

  useEffect(() => {
    if (!token) return
    const connection = openActivityFeed({
      url: activityFeedUrl(window.location),
      token,
      keep: KEEP,
      resume: remembered,
      onChange(state) {
        remembered = { position: state.position, items: state.items }
        setFeed(state)
      },
    })
    return () => connection.close()
  }, [token])

  return (
    <section className="card activity-panel" aria-labelledby={headingId} data-feed={feed.status}>
      <header className="activity-header">
        <h2 id={headingId}>Activity</h2>
        <span className={`activity-status activity-${feed.status}`} role="status">
          {statusText[feed.status]}
        </span>
      </header>
      {feed.refusal && feed.status === 'refused' && (
        <p className="error-text" role="alert">
          {feed.refusal}
        </p>
      )}
      {feed.items.length === 0 ? (
        <p className="empty-text">{feed.status === 'live' ? 'No activity yet.' : 'Loading...'}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls, so a keyboard must reach it to scroll it (WCAG 2.1.1, axe's scrollable-region-focusable)
        <ol className="activity-list" aria-label="Latest activity" aria-live="polite" tabIndex={0}>
          {feed.items.map((item) => (
            <ActivityLine key={item.position} item={item} />
          ))}
        </ol>
      )}
    </section>
  )
}
