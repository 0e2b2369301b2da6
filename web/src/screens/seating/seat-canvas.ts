// A big plan's seats painted on a canvas (issue 40): 50,000 SVG elements cost seconds of style,
// layout and paint on a phone, a canvas tens of milliseconds. The seats look as seating.css draws
// them (colour, and a mark per status: a stroke for held, a cross for sold, a dot for blocked; a
// square for a wheelchair or a companion seat). A live change paints again only the seats whose look
// changed. The grid's cells for assistive technology and the keyboard stay SVG (seat-plan.tsx).
import type { Box, SeatMapView } from '../../../../contracts/seating.ts'
import { SEAT_RADIUS } from './plan-layout.ts'

type Seat = SeatMapView['sections'][number]['rows'][number]['seats'][number]

/** the canvas's longest side in pixels: sharp when the whole plan fills a phone 3 times over */
const MAX_PIXELS = 4096

/** pixels a plan unit */
export function canvasScale(box: Box): number {
  return Math.min(4, MAX_PIXELS / Math.max(box.w, box.h, 1))
}

const fills = {
  free: '#4caf7d',
  held: '#e7c27d',
  sold: '#8b93a5',
  blocked: '#ffffff',
  chosen: '#1f5fbf',
} as const

/** what a seat looks like: redrawn when this changes */
export const seatLook = (seat: Seat, chosen: boolean) =>
  `${chosen ? 'chosen' : seat.status}${seat.accessible ? ` ${seat.accessible}` : ''}`

/**
 * Paints these seats (cleared first when `clear`) in plan units on a canvas already transformed to
 * them; seats of one look share one path, so that a whole plan is a few fills.
 */
export function paintSeats(
  context: CanvasRenderingContext2D,
  seats: readonly Seat[],
  chosen: ReadonlySet<string>,
  clear: boolean,
) {
  const r = SEAT_RADIUS
  const bodies = new Map<string, Path2D>()
  const marks = { held: new Path2D(), sold: new Path2D(), blocked: new Path2D() }
  const outlines = { accessible: new Path2D(), chosen: new Path2D(), blocked: new Path2D() }
  for (const seat of seats) {
    if (clear) context.clearRect(seat.x - r - 1, seat.y - r - 1, 2 * r + 2, 2 * r + 2)
    const isChosen = chosen.has(seat.id)
    const fill = isChosen ? fills.chosen : fills[seat.status]
    let body = bodies.get(fill)
    if (!body) {
      body = new Path2D()
      bodies.set(fill, body)
    }
    addShape(body, seat)
    if (isChosen) addShape(outlines.chosen, seat)
    else if (seat.accessible) addShape(outlines.accessible, seat)
    if (isChosen) continue
    if (seat.status === 'held') {
      marks.held.moveTo(seat.x - r * 0.7, seat.y + r * 0.7)
      marks.held.lineTo(seat.x + r * 0.7, seat.y - r * 0.7)
    } else if (seat.status === 'sold') {
      marks.sold.moveTo(seat.x - r * 0.6, seat.y - r * 0.6)
      marks.sold.lineTo(seat.x + r * 0.6, seat.y + r * 0.6)
      marks.sold.moveTo(seat.x + r * 0.6, seat.y - r * 0.6)
      marks.sold.lineTo(seat.x - r * 0.6, seat.y + r * 0.6)
    } else if (seat.status === 'blocked') {
      marks.blocked.moveTo(seat.x + r * 0.3, seat.y)
      marks.blocked.arc(seat.x, seat.y, r * 0.3, 0, 2 * Math.PI)
      if (!seat.accessible) addShape(outlines.blocked, seat)
    }
  }
  for (const [fill, body] of bodies) {
    context.fillStyle = fill
    context.fill(body)
  }
  context.lineWidth = 0.8
  context.strokeStyle = '#8a6514'
  context.stroke(marks.held)
  context.strokeStyle = '#39404f'
  context.stroke(marks.sold)
  context.fillStyle = '#5b6478'
  context.fill(marks.blocked)
  context.lineWidth = 0.5
  context.strokeStyle = '#5b6478'
  context.stroke(outlines.blocked)
  context.lineWidth = 1
  context.strokeStyle = '#1f4fa0'
  context.stroke(outlines.accessible)
  context.lineWidth = 1.4
  context.strokeStyle = '#0b2a5c'
  context.stroke(outlines.chosen)
}

/** a seat's circle (a square for a wheelchair or a companion seat) added to a path */
function addShape(path: Path2D, seat: Seat) {
  const r = SEAT_RADIUS
  if (seat.accessible) path.rect(seat.x - r, seat.y - r, 2 * r, 2 * r)
  else {
    path.moveTo(seat.x + r, seat.y)
    path.arc(seat.x, seat.y, r, 0, 2 * Math.PI)
  }
}

/** the seat nearest a point of the plan, if it is within `reach` of the seat's centre (a seat's
 * radius and a little more; a few screen pixels when the seats are drawn smaller than that) */
export function seatAtPoint(
  map: SeatMapView,
  point: { x: number; y: number },
  reach = SEAT_RADIUS + 0.5,
): string | null {
  let best: string | null = null
  let nearest = reach * reach
  for (const section of map.sections)
    for (const row of section.rows)
      for (const seat of row.seats) {
        const d = (seat.x - point.x) ** 2 + (seat.y - point.y) ** 2
        if (d <= nearest) {
          nearest = d
          best = seat.id
        }
      }
  return best
}
