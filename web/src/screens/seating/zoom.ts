// The map's zoom and pan as plain maths (issue 40): a view is `translate(x, y) scale(k)` applied to
// the plan's group inside an SVG whose viewBox is the plan's box, so points are in the plan's units.
// Zooming keeps the point under the fingers (or the box's centre) where it is; the plan can never
// be moved out of its box, nor shrunk below its whole.
import type { Box } from '../../../../contracts/seating.ts'

export type View = { k: number; x: number; y: number }
export type Point = { x: number; y: number }

export const MIN_ZOOM = 1
export const MAX_ZOOM = 16
/** what a zoom button multiplies or divides the scale by */
export const ZOOM_STEP = 1.5

export const wholePlan: View = { k: 1, x: 0, y: 0 }

const clampNumber = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value))

/** the view kept inside the box: the scale within its limits, the plan covering the box */
export function clampView(view: View, box: Box): View {
  const k = clampNumber(view.k, MIN_ZOOM, MAX_ZOOM)
  // a plan point p is drawn at k·p + t; the drawn plan must cover [box.x, box.x + box.w]
  const x = clampNumber(view.x, box.x + box.w - k * (box.x + box.w), box.x - k * box.x)
  const y = clampNumber(view.y, box.y + box.h - k * (box.y + box.h), box.y - k * box.y)
  return { k, x, y }
}

/** the view scaled by `factor` about a point of the box (the point stays put) */
export function zoomAt(view: View, factor: number, point: Point, box: Box): View {
  const k = clampNumber(view.k * factor, MIN_ZOOM, MAX_ZOOM)
  const ratio = k / view.k
  return clampView(
    { k, x: point.x - (point.x - view.x) * ratio, y: point.y - (point.y - view.y) * ratio },
    box,
  )
}

/** the view moved by a drag of (dx, dy) in the box's units */
export const panBy = (view: View, dx: number, dy: number, box: Box): View =>
  clampView({ k: view.k, x: view.x + dx, y: view.y + dy }, box)

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y)
const middle = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 })

/** two fingers moved from `before` to `after`: scaled by their spread, moved with their middle */
export function pinch(view: View, before: [Point, Point], after: [Point, Point], box: Box): View {
  const spread = distance(before[0], before[1])
  const factor = spread > 0 ? distance(after[0], after[1]) / spread : 1
  const from = middle(before[0], before[1])
  const to = middle(after[0], after[1])
  const scaled = zoomAt(view, factor, from, box)
  return panBy(scaled, to.x - from.x, to.y - from.y, box)
}

/** the point of the plan drawn at a point of the box */
export const planPoint = (view: View, point: Point): Point => ({
  x: (point.x - view.x) / view.k,
  y: (point.y - view.y) / view.k,
})

/** the view moved (not scaled) just enough that a plan point is drawn inside the box, with a margin */
export function showPoint(view: View, point: Point, box: Box, margin = 10): View {
  const drawnX = view.k * point.x + view.x
  const drawnY = view.k * point.y + view.y
  let dx = 0
  let dy = 0
  if (drawnX < box.x + margin) dx = box.x + margin - drawnX
  else if (drawnX > box.x + box.w - margin) dx = box.x + box.w - margin - drawnX
  if (drawnY < box.y + margin) dy = box.y + margin - drawnY
  else if (drawnY > box.y + box.h - margin) dy = box.y + box.h - margin - drawnY
  return dx === 0 && dy === 0 ? view : panBy(view, dx, dy, box)
}

/** the SVG transform attribute of a view */
export const transformOf = (view: View): string => `translate(${view.x} ${view.y}) scale(${view.k})`
