// Harness page for the analytics charts (tests/e2e/charts.test.ts). window.harness lets the test
// give new figures (as a live refetch does), and hide and re-show the charts the two ways React
// does it to mounted content: a Suspense boundary whose content suspends again (any lazy part or
// pending read beside the charts), and <Activity mode="hidden">. Errors land in #error, as the
// router's error screen would show them.
import { Activity, Component, type ReactNode, Suspense, use, useSyncExternalStore } from 'react'
import { createRoot } from 'react-dom/client'
import type { AnalyticsReply } from '../../../contracts/analytics.ts'
import AnalyticsCharts from '../../../web/src/ui/analytics/analytics-charts.tsx'

type Figures = Pick<AnalyticsReply, 'analytics' | 'timeline'>
type State = { figures: Figures; pending: Promise<void> | null; hidden: boolean }

let state: State = { figures: { analytics: [], timeline: [] }, pending: null, hidden: false }
const listeners = new Set<() => void>()
const set = (next: Partial<State>) => {
  state = { ...state, ...next }
  for (const listener of listeners) listener()
}
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

let release: (() => void) | null = null

const harness = {
  show(figures: Figures) {
    set({ figures })
  },
  /** suspends a sibling of the charts in their Suspense boundary: React hides the mounted charts */
  suspend() {
    set({ pending: new Promise<void>((resolve) => (release = resolve)) })
  },
  resume() {
    release?.()
    release = null
    set({ pending: null })
  },
  hide(hidden: boolean) {
    set({ hidden })
  },
}
declare global {
  interface Window {
    harness: typeof harness
  }
}
window.harness = harness

class Catch extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null }
  static getDerivedStateFromError(error: Error) {
    return { error }
  }
  override render() {
    if (this.state.error) return <p id="error">{this.state.error.message}</p>
    return this.props.children
  }
}

function Pending() {
  const { pending } = useSyncExternalStore(subscribe, () => state)
  if (pending) use(pending)
  return null
}

function Page() {
  const { figures, hidden } = useSyncExternalStore(subscribe, () => state)
  return (
    <Activity mode={hidden ? 'hidden' : 'visible'}>
      <Suspense fallback={<p id="fallback">Loading charts...</p>}>
        <Pending />
        {figures.analytics.length > 0 && (
          <AnalyticsCharts analytics={figures.analytics} timeline={figures.timeline} />
        )}
      </Suspense>
    </Activity>
  )
}

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <Catch>
      <Page />
    </Catch>,
  )
