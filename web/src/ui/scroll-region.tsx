// A table's box that scrolls sideways when the table is wider than the screen (a phone), and says so:
// while it overflows, a line above it tells that it scrolls, a fade marks each edge with more beyond
// it, and the box is a labelled region in the tab order, so a keyboard scrolls it too. As wide as
// its table, it is a plain box.
import { type ReactNode, useId, useLayoutEffect, useRef, useState } from 'react'

export const scrollTexts = { hint: 'Scroll sideways for more columns' } as const

type Overflow = { left: boolean; right: boolean } | null

/** what lies beyond the box's left and right edges; null when nothing does (it does not scroll) */
function overflowOf(box: HTMLElement): Overflow {
  // a pixel's rounding is not a column
  const hidden = box.scrollWidth - box.clientWidth
  if (hidden <= 1) return null
  return { left: box.scrollLeft > 1, right: box.scrollLeft < hidden - 1 }
}

const same = (a: Overflow, b: Overflow) =>
  a === b || (a !== null && b !== null && a.left === b.left && a.right === b.right)

/** `label`: the region's name, read with its hint while it scrolls (the table's caption says what it holds) */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null)
  const [overflow, setOverflow] = useState<Overflow>(null)
  const hintId = useId()

  useLayoutEffect(() => {
    const element = box.current
    if (!element) return
    const measure = () => {
      const now = overflowOf(element)
      setOverflow((known) => (same(known, now) ? known : now))
    }
    measure()
    // the screen turned or resized, or the table changed (other rows, wider numbers)
    const resized = new ResizeObserver(measure)
    resized.observe(element)
    for (const child of element.children) resized.observe(child)
    element.addEventListener('scroll', measure, { passive: true })
    return () => {
      resized.disconnect()
      element.removeEventListener('scroll', measure)
    }
  }, [])

  return (
    <>
      {overflow && (
        <p id={hintId} className="scroll-hint">
          {scrollTexts.hint}
        </p>
      )}
      <div
        className="scroll-frame"
        data-more-left={overflow?.left ? '' : undefined}
        data-more-right={overflow?.right ? '' : undefined}
      >
        <div
          ref={box}
          className="table-scroll"
          {...(overflow
            ? { role: 'region', 'aria-label': label, 'aria-describedby': hintId, tabIndex: 0 }
            : {})}
        >
          {children}
        </div>
      </div>
    </>
  )
}
