// After the app moves to another page, the new page's heading takes the focus where the focus was
// lost (the link or button that led there is gone, or was disabled while it worked): a keyboard user
// goes on from the top of the new page, and a screen reader says where they are. A focus still on
// something (a link of the navigation, a field a page focuses itself) is left where it is.
import { useRouterState } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { focusLost } from './focus.ts'

/** how long a new page may take to show its heading (its code and data arriving) */
const WAIT_MS = 3000

export function usePageFocus(): void {
  // the page shown, once its route is resolved (the page before may stay while the next loads)
  const path = useRouterState({ select: (state) => state.resolvedLocation?.pathname })
  const first = useRef(true)
  useEffect(() => {
    // the first page is the browser's to focus, as any page loaded (from the top, the navigation
    // first): nothing is done until it is resolved, and nothing then
    if (first.current) {
      if (path !== undefined) first.current = false
      return
    }
    const until = performance.now() + WAIT_MS
    let frame = 0
    const look = () => {
      const heading = document.querySelector<HTMLElement>('main h1')
      if (heading) {
        if (!focusLost()) return
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1
        heading.focus({ preventScroll: true })
        return
      }
      if (performance.now() < until) frame = requestAnimationFrame(look)
    }
    frame = requestAnimationFrame(look)
    return () => cancelAnimationFrame(frame)
  }, [path])
}
