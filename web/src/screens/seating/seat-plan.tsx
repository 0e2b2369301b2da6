// A seat map drawn (issue 40): an SVG of the plan's seats, one circle each (a square for a seat kept
// for a wheelchair or a companion), coloured and patterned by status, the stage a box above. It is
// a grid to assistive technology: sections are row groups, rows are rows, seats are cells with a
// roving tab stop (arrows move, Space and Enter choose) and names such as "Row F, seat 12, ₹1,500,
// free". Pinch and drag zoom and pan it on a phone, the buttons and Ctrl+wheel anywhere: the view is
// a CSS transform of one group, written straight to the DOM, so moving it redraws no seat. Rows are
// memoised and the seats hold no state of their own: a live change redraws only its rows, and the
// SVG listens once for every seat. A plan of more than LARGE_PLAN seats is painted on a canvas in the
// same view (seat-canvas.ts), and its grid holds the rows of the tab stop and of the chosen seats
// (aria-rowcount and aria-rowindex say where they are): a stadium of 50,000 seats draws in a
// fraction of a second on a phone, a live change paints only the seats it changed, and a zoom past
// the canvas's pixels paints it again sharper.
import {
  type KeyboardEvent,
  memo,
  type PointerEvent,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import type { Box, SeatMapView } from '../../../../contracts/seating.ts'
import { seatLayout, seatPlaces } from '../../live/seat-changes.ts'
import { planBoxes, rowsToDraw, SEAT_RADIUS, sectionBox } from './plan-layout.ts'
import { canvasScale, seatAtPoint, seatLook, seatPainter } from './seat-canvas.ts'
import { seatName } from './seat-name.ts'
import { firstSeat, moveFocus, seatNavigation } from './seat-navigation.ts'
import { type Point, panBy, pinch, showPoint, type View, wholePlan, ZOOM_STEP, zoomAt } from './zoom.ts'
import './seating.css'

type Section = SeatMapView['sections'][number]
type Row = Section['rows'][number]

export type SeatPlanProps = {
  map: SeatMapView
  /** the grid's accessible name */
  label: string
  /** the seats shown as chosen (aria-selected) */
  selected: ReadonlySet<string>
  /** a seat clicked, or Space or Enter on it */
  onActivate(id: string): void
  /** buy: only free seats can be chosen (the others are disabled); edit: every seat can */
  mode: 'buy' | 'edit'
}

/** a plan with more seats is painted on a canvas, its grid's cells kept for the keyboard's rows */
const LARGE_PLAN = 5000

/** about how many seats are drawn a frame: a stadium's plan appears in parts over a second or so
 * rather than in one task that holds the page up */
const SEATS_A_FRAME = 5000

/** how long a zoom rests before a big plan's canvas is painted sharper for it */
const SHARPEN_AFTER_MS = 200

/** a drag shorter than this (in screen pixels) is a click */
const DRAG_PX = 6

export function SeatPlan({ map, label, selected, onActivate, mode }: SeatPlanProps) {
  // The seats are drawn in the background (interruptibly, a few milliseconds at a time): a big
  // plan's first drawing and its live changes never hold up the page. Until the first drawing is
  // done, the map is shown empty.
  const shown = useDeferredValue<SeatMapView | null>(map, null)
  // The layout depends on where the seats are, which live changes never move: the seats' layout
  // is shared by every map made from this one by changes (live/seat-changes.ts).
  const layout = seatLayout(map)
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  const { box, sections: sectionBoxes } = useMemo(() => planBoxes(map), [layout, map.stage])
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  const nav = useMemo(() => seatNavigation(map), [layout])
  const large = layout.seats > LARGE_PLAN
  const [painted, setPainted] = useState(false)
  const svgRef = useRef<SVGSVGElement>(null)
  const groupRef = useRef<SVGGElement>(null)
  const view = useRef<View>(wholePlan)
  const [focused, setFocused] = useState<string | null>(null)
  // the tab stop: the seat last focused while it is still on the plan, else the first
  const tabStop = focused !== null && nav.at.has(focused) ? focused : firstSeat(nav)
  const wantFocus = useRef(false)

  // the rows drawn so far, in the plan's order: more each frame until all are
  const [drawnRows, setDrawnRows] = useState(() => rowsToDraw(map, 0, SEATS_A_FRAME))
  // biome-ignore lint/correctness/useExhaustiveDependencies: the seats' places are the plan's layout
  const totalRows = useMemo(() => map.sections.reduce((n, section) => n + section.rows.length, 0), [layout])
  useEffect(() => {
    if (shown === null || large || drawnRows >= totalRows) return
    const frame = requestAnimationFrame(() => setDrawnRows((rows) => rowsToDraw(shown, rows, SEATS_A_FRAME)))
    return () => cancelAnimationFrame(frame)
  }, [shown, large, drawnRows, totalRows])
  const tabStopRow = useMemo(() => {
    if (tabStop === null || shown === null) return null
    // the first seat's row is known without the seats' index (the map drawn may still be the one
    // before a new plan, whose rows are elsewhere: then the index of that map finds it)
    const first = tabStop === nav.first?.id ? nav.first : undefined
    const row = first && shown.sections[first.section]?.rows[first.row]
    if (row?.seats.some((seat) => seat.id === tabStop)) return row
    const place = seatPlaces(shown).get(tabStop)
    return (place && shown.sections[place.section]?.rows[place.row]) ?? null
  }, [shown, tabStop, nav])

  // A big plan's canvas has the pixels of the whole plan on the screen: zoomed in past them, it is
  // painted again with more (the zoom rounded up to a power of two), once the fingers rest.
  const [detail, setDetail] = useState(1)
  const sharpen = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(sharpen.current), [])
  const draw = useCallback((next: View) => {
    view.current = next
    const group = groupRef.current
    if (group) group.style.transform = `translate(${next.x}px, ${next.y}px) scale(${next.k})`
    clearTimeout(sharpen.current)
    sharpen.current = setTimeout(() => {
      const wanted = 2 ** Math.ceil(Math.log2(view.current.k))
      setDetail((shown) => Math.max(wanted, shown))
    }, SHARPEN_AFTER_MS)
  }, [])
  // a new plan (another box) starts whole
  // biome-ignore lint/correctness/useExhaustiveDependencies: the box is what resets the view
  useEffect(() => draw(wholePlan), [box.x, box.y, box.w, box.h])

  // each row's chosen seats and tab stop, so that a row redraws only when its own change
  const selectedByRow = useMemo(() => {
    const byRow = new Map<Row, string>()
    if (shown === null || selected.size === 0) return byRow
    const places = seatPlaces(shown)
    for (const id of selected) {
      const place = places.get(id)
      const row = place && shown.sections[place.section]?.rows[place.row]
      if (row) byRow.set(row, byRow.has(row) ? `${byRow.get(row)} ${id}` : id)
    }
    return byRow
  }, [shown, selected])

  // the seat moved to by the keyboard takes the focus once drawn, brought into view when zoomed
  useEffect(() => {
    if (!wantFocus.current || tabStop === null) return
    wantFocus.current = false
    const place = seatPlaces(map).get(tabStop)
    const seat = place && map.sections[place.section]?.rows[place.row]?.seats[place.seat]
    if (seat && view.current.k > 1) draw(showPoint(view.current, seat, box))
    svgRef.current?.querySelector<SVGElement>(`[data-seat="${tabStop}"]`)?.focus()
  }, [tabStop, map, box, draw])

  // Pointers down on the map: one drags it, two pinch it.
  const pointers = useRef(new Map<number, Point>())
  const dragged = useRef(0)
  const toBox = (clientX: number, clientY: number): Point => {
    const matrix = svgRef.current?.getScreenCTM()
    if (!matrix) return { x: clientX, y: clientY }
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse())
    return { x: point.x, y: point.y }
  }
  const pixelsPerUnit = () => svgRef.current?.getScreenCTM()?.a ?? 1
  /** a point of the screen in the plan's units, zoom and pan undone */
  const toPlan = (clientX: number, clientY: number): Point & { perPixel: number } => {
    const matrix = groupRef.current?.getScreenCTM()
    if (!matrix) return { ...toBox(clientX, clientY), perPixel: 1 / pixelsPerUnit() }
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse())
    return { x: point.x, y: point.y, perPixel: 1 / (matrix.a || 1) }
  }
  /** the seat of a big plan's canvas under the pointer (within a seat's radius, or 4 pixels) */
  const seatUnder = (plan: SeatMapView, clientX: number, clientY: number) => {
    const point = toPlan(clientX, clientY)
    return seatAtPoint(plan, point, Math.max(SEAT_RADIUS + 0.5, 4 * point.perPixel))
  }

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return
    pointers.current.set(event.pointerId, toBox(event.clientX, event.clientY))
    if (pointers.current.size === 1) dragged.current = 0
  }
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const before = pointers.current.get(event.pointerId)
    if (!before) return
    const now = toBox(event.clientX, event.clientY)
    if (pointers.current.size >= 2) {
      const [first, second] = [...pointers.current.entries()]
      if (!first || !second) return
      const others = first[0] === event.pointerId ? second[1] : first[1]
      draw(pinch(view.current, [before, others], [now, others], box))
      dragged.current = Number.POSITIVE_INFINITY
    } else {
      dragged.current += Math.hypot(now.x - before.x, now.y - before.y) * pixelsPerUnit()
      if (dragged.current > DRAG_PX) draw(panBy(view.current, now.x - before.x, now.y - before.y, box))
    }
    pointers.current.set(event.pointerId, now)
  }
  const onPointerEnd = (event: PointerEvent<SVGSVGElement>) => {
    pointers.current.delete(event.pointerId)
  }

  // Ctrl+wheel (and a trackpad's pinch) zooms about the pointer; a plain wheel scrolls the page.
  useEffect(() => {
    const svg = svgRef.current
    if (!svg) return
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey) return
      event.preventDefault()
      draw(zoomAt(view.current, Math.exp(-event.deltaY / 200), toBox(event.clientX, event.clientY), box))
    }
    svg.addEventListener('wheel', onWheel, { passive: false })
    return () => svg.removeEventListener('wheel', onWheel)
  })

  const seatOf = (target: EventTarget | null): string | null =>
    target instanceof Element ? target.getAttribute('data-seat') : null

  const onClick = (event: {
    target: EventTarget | null
    detail: number
    clientX: number
    clientY: number
  }) => {
    // a seat of a big plan's canvas: the one under the pointer
    const id =
      seatOf(event.target) ??
      (large && shown !== null && event.detail !== 0 ? seatUnder(shown, event.clientX, event.clientY) : null)
    if (id === null) return
    // the end of a drag or a pinch is no choice (a screen reader's click, detail 0, always is)
    if (event.detail !== 0 && dragged.current > DRAG_PX) return
    // the seat clicked takes the focus, so that the arrows go on from it (a canvas's seat once its
    // row's cell is drawn)
    if (id === tabStop) svgRef.current?.querySelector<SVGElement>(`[data-seat="${id}"]`)?.focus()
    else {
      wantFocus.current = true
      setFocused(id)
    }
    onActivate(id)
  }

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const id = seatOf(event.target)
    if (id === null) return
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault()
      onActivate(id)
      return
    }
    const next = moveFocus(nav, id, event)
    if (next === null) return
    event.preventDefault()
    wantFocus.current = true
    setFocused(next)
  }

  const centre = { x: box.x + box.w / 2, y: box.y + box.h / 2 }
  return (
    <div className="seat-plan">
      <div className="seat-plan-zoom" role="toolbar" aria-label="Zoom">
        <button
          type="button"
          className="button-secondary"
          onClick={() => draw(zoomAt(view.current, ZOOM_STEP, centre, box))}
        >
          Zoom in
        </button>
        <button
          type="button"
          className="button-secondary"
          onClick={() => draw(zoomAt(view.current, 1 / ZOOM_STEP, centre, box))}
        >
          Zoom out
        </button>
        <button type="button" className="button-secondary" onClick={() => draw(wholePlan)}>
          Reset zoom
        </button>
      </div>
      {/* biome-ignore lint/a11y: an SVG drawing of seats is an ARIA grid; biome takes its SVG elements for HTML ones */}
      <svg
        ref={svgRef}
        className={`seat-plan-svg seat-plan-${mode}${large ? ' seat-plan-large' : ''}`}
        viewBox={`${box.x} ${box.y} ${box.w} ${box.h}`}
        style={{ aspectRatio: `${box.w} / ${box.h}` }}
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the drawing is the seats' grid
        role="grid"
        aria-label={label}
        aria-multiselectable={mode === 'buy'}
        aria-rowcount={large ? nav.rowCount : undefined}
        // how far the seats are drawn (none, some, all): what the web bench times
        data-drawn={shown === null ? 'none' : (large ? painted : drawnRows >= totalRows) ? 'all' : 'some'}
        onClick={onClick}
        onKeyDown={onKeyDown}
        onFocus={(event) => {
          const id = seatOf(event.target)
          if (id !== null && id !== focused) setFocused(id)
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onPointerLeave={onPointerEnd}
      >
        <SeatPatterns />
        {/* biome-ignore lint/a11y: an SVG drawing of seats is an ARIA grid; biome takes its SVG elements for HTML ones */}
        <g ref={groupRef} className="seat-plan-view" role="none">
          {map.stage && <Stage stage={map.stage} />}
          {large && shown !== null && (
            <SeatCanvas
              map={shown}
              box={box}
              selected={selected}
              detail={detail}
              onPainted={() => setPainted(true)}
            />
          )}
          {shown?.sections.map((section, s, sections) => (
            <SectionSeats
              // a plan's sections keep their places; a name may repeat while being drawn
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={s}
              section={section}
              place={sectionBoxes[s] ?? sectionBox(section)}
              rowLimit={
                large
                  ? Number.POSITIVE_INFINITY
                  : drawnRows - sections.slice(0, s).reduce((n, each) => n + each.rows.length, 0)
              }
              // a big plan's grid: the rows the keyboard and the choice need, where they are
              gridRow={
                large
                  ? (row, r) =>
                      row === tabStopRow || selectedByRow.has(row) ? (nav.gridRowOf(s, r) ?? 0) + 1 : null
                  : undefined
              }
              selectedByRow={selectedByRow}
              tabStop={tabStop}
              tabStopRow={tabStopRow}
              mode={mode}
            />
          ))}
        </g>
      </svg>
      {shown === null && (
        <p className="form-hint" role="status">
          Drawing the seat map…
        </p>
      )}
    </div>
  )
}

function Stage({ stage }: { stage: Box }) {
  return (
    // biome-ignore lint/a11y: an SVG drawing of seats is an ARIA grid; biome takes its SVG elements for HTML ones
    <g className="seat-plan-stage" aria-hidden="true">
      <rect x={stage.x} y={stage.y} width={stage.w} height={stage.h} rx={2} />
      <text
        x={stage.x + stage.w / 2}
        y={stage.y + stage.h / 2}
        dominantBaseline="central"
        textAnchor="middle"
      >
        Stage
      </text>
    </g>
  )
}

function SectionSeats(props: {
  section: Section
  /** its seats' box (where its name goes) */
  place: Box
  /** how many of its rows are drawn yet */
  rowLimit: number
  selectedByRow: Map<Row, string>
  tabStop: string | null
  tabStopRow: Row | null
  mode: 'buy' | 'edit'
  /** a big plan's: the row's place in the grid (from 1), or null for a row left out */
  gridRow?: (row: Row, r: number) => number | null
}) {
  const { section, place, rowLimit, selectedByRow, tabStop, tabStopRow, mode, gridRow } = props
  return (
    // biome-ignore lint/a11y: an SVG drawing of seats is an ARIA grid; biome takes its SVG elements for HTML ones
    <g role="rowgroup" aria-label={section.name}>
      {/* biome-ignore lint/a11y: an SVG drawing of seats is an ARIA grid; biome takes its SVG elements for HTML ones */}
      <text className="seat-plan-section-name" x={place.x} y={place.y - 3} aria-hidden="true">
        {section.name}
      </text>
      {section.rows.map((row, r) => {
        const index = gridRow?.(row, r)
        return r >= rowLimit || index === null ? null : (
          <SeatRow
            // biome-ignore lint/suspicious/noArrayIndexKey: a row's place in its section is its identity here
            key={r}
            row={row}
            rowIndex={index}
            price={section.price}
            selected={selectedByRow.get(row) ?? ''}
            tabStop={row === tabStopRow ? tabStop : null}
            mode={mode}
          />
        )
      })}
    </g>
  )
}

/** one row's seats; redrawn only when its seats, its chosen ones or its tab stop change */
const SeatRow = memo(function SeatRow(props: {
  row: Row
  price: number
  /** the row's chosen seats' ids, space-separated */
  selected: string
  tabStop: string | null
  mode: 'buy' | 'edit'
  /** its place in a big plan's grid */
  rowIndex?: number
}) {
  const { row, price, tabStop, mode, rowIndex } = props
  const chosen = props.selected === '' ? null : new Set(props.selected.split(' '))
  return (
    // biome-ignore lint/a11y: an SVG drawing of seats is an ARIA grid; biome takes its SVG elements for HTML ones
    <g role="row" aria-label={`Row ${row.label}`} aria-rowindex={rowIndex}>
      {row.seats.map((seat) => {
        const isChosen = chosen?.has(seat.id) ?? false
        const common = {
          'data-seat': seat.id,
          role: 'gridcell',
          'aria-label': seatName(row.label, seat, price),
          'aria-selected': isChosen,
          'aria-disabled': mode === 'buy' && seat.status !== 'free' ? true : undefined,
          // the one tab stop; the others are focused by script only as the stop moves to them
          tabIndex: seat.id === tabStop ? 0 : undefined,
          className: `seat seat-${seat.status}${isChosen ? ' seat-chosen' : ''}${seat.accessible ? ` seat-${seat.accessible}` : ''}`,
        }
        return seat.accessible ? (
          <rect
            key={seat.id}
            {...common}
            x={seat.x - SEAT_RADIUS}
            y={seat.y - SEAT_RADIUS}
            width={2 * SEAT_RADIUS}
            height={2 * SEAT_RADIUS}
            rx={1}
          />
        ) : (
          <circle key={seat.id} {...common} cx={seat.x} cy={seat.y} r={SEAT_RADIUS} />
        )
      })}
    </g>
  )
})

/**
 * A big plan's seats, painted; again only where a seat's look changed (seat-canvas.ts). The canvas
 * has the pixels the map takes on the screen, times `detail` (the zoom it was last sharpened for),
 * made again when that scale changes.
 */
function SeatCanvas(props: {
  map: SeatMapView
  box: Box
  selected: ReadonlySet<string>
  detail: number
  onPainted(): void
}) {
  const { map, box, selected, detail, onPainted } = props
  const ref = useRef<HTMLCanvasElement>(null)
  /** what the canvas shows: the rows as painted (per section), the seats chosen, at which scale */
  const shows = useRef({
    size: '',
    rows: [] as Row[][],
    chosen: new Set<string>() as ReadonlySet<string>,
    painter: null as ReturnType<typeof seatPainter> | null,
  })
  useLayoutEffect(() => {
    const canvas = ref.current
    const context = canvas?.getContext('2d')
    if (!canvas || !context) return
    const state = shows.current
    // the screen's pixels a plan unit, unzoomed: the SVG's scale of its viewBox
    const onScreen = (canvas.closest('svg')?.getScreenCTM()?.a ?? 0) * window.devicePixelRatio
    const scale = canvasScale(box, onScreen * detail)
    const width = Math.round(box.w * scale)
    const height = Math.round(box.h * scale)
    // a new size or scale clears the canvas: everything is painted again
    const size = `${width}x${height}@${box.x},${box.y}`
    const fresh = state.size !== size || state.painter === null
    if (fresh) {
      canvas.width = width
      canvas.height = height
      state.size = size
      state.rows = []
      state.chosen = new Set()
      state.painter = seatPainter(box, scale)
    }
    // A live change makes new objects of its rows only: a row painted as it is is skipped, and of a
    // changed one only the seats that look otherwise are painted. Comparing rows rather than keeping
    // each seat's look by its id spares the first paint of a stadium 50,000 strings and map entries.
    const due: Row['seats'] = []
    map.sections.forEach((section, s) => {
      state.rows[s] ??= []
      const painted = state.rows[s]
      section.rows.forEach((row, r) => {
        const before = painted[r]
        if (before === row) return
        painted[r] = row
        if (!before) {
          for (const seat of row.seats) due.push(seat)
          return
        }
        row.seats.forEach((seat, n) => {
          const was = before.seats[n]
          if (!was || was.id !== seat.id || seatLook(was, false) !== seatLook(seat, false)) due.push(seat)
        })
      })
    })
    // the seats chosen or no longer chosen since the last paint
    const turned = [...state.chosen].filter((id) => !selected.has(id))
    for (const id of selected) if (!state.chosen.has(id)) turned.push(id)
    if (turned.length > 0) {
      const places = seatPlaces(map)
      const seen = new Set(due)
      for (const id of turned) {
        const place = places.get(id)
        const seat = place && map.sections[place.section]?.rows[place.row]?.seats[place.seat]
        if (seat && !seen.has(seat)) due.push(seat)
      }
    }
    state.chosen = selected
    if (fresh) state.painter?.paintAll(context, due, selected)
    else state.painter?.paint(context, due, selected)
    onPainted()
  }, [map, box, selected, detail, onPainted])
  return (
    // biome-ignore lint/a11y: an SVG drawing of seats is an ARIA grid; biome takes its SVG elements for HTML ones
    <foreignObject x={box.x} y={box.y} width={box.w} height={box.h} aria-hidden="true">
      <canvas ref={ref} className="seat-plan-canvas" />
    </foreignObject>
  )
}

/** the patterns that tell statuses apart without colour */
function SeatPatterns() {
  return (
    <defs>
      <pattern
        id="seat-held-hatch"
        width="2"
        height="2"
        patternUnits="userSpaceOnUse"
        patternTransform="rotate(45)"
      >
        <rect width="2" height="2" fill="#e7c27d" />
        <line x1="0" y1="0" x2="0" y2="2" stroke="#8a6514" strokeWidth="1" />
      </pattern>
      <pattern id="seat-sold-cross" width="2" height="2" patternUnits="userSpaceOnUse">
        <rect width="2" height="2" fill="#8b93a5" />
        <path d="M0 0L2 2M2 0L0 2" stroke="#39404f" strokeWidth="0.5" />
      </pattern>
      <pattern id="seat-blocked-dots" width="2" height="2" patternUnits="userSpaceOnUse">
        <rect width="2" height="2" fill="#ffffff" />
        <circle cx="1" cy="1" r="0.4" fill="#5b6478" />
      </pattern>
    </defs>
  )
}

/** the key to the statuses, drawn as the map draws them */
export function SeatKey({ mode }: { mode: 'buy' | 'edit' }) {
  const entries: { className: string; text: string; square?: boolean }[] = [
    { className: 'seat seat-free', text: 'Free' },
    ...(mode === 'buy' ? [{ className: 'seat seat-free seat-chosen', text: 'Your choice' }] : []),
    { className: 'seat seat-held', text: 'Held' },
    { className: 'seat seat-sold', text: 'Sold' },
    { className: 'seat seat-blocked', text: 'Not for sale' },
    { className: 'seat seat-free seat-wheelchair', text: 'Wheelchair space', square: true },
    { className: 'seat seat-free seat-companion', text: 'Companion seat', square: true },
  ]
  return (
    <ul className="seat-key" aria-label="Key">
      {entries.map(({ className, text, square }) => (
        <li key={text}>
          <svg viewBox="-5 -5 10 10" width="18" height="18" aria-hidden="true">
            {square ? (
              <rect className={className} x={-4} y={-4} width={8} height={8} rx={1} />
            ) : (
              <circle className={className} r={4} />
            )}
          </svg>
          {text}
        </li>
      ))}
    </ul>
  )
}
