// A big plan's seats painted on a canvas (issue 40): 50,000 SVG elements cost seconds of style,
// layout and paint on a phone. The seats look as seating.css draws them (colour, and a mark per
// status: a stroke for held, a cross for sold, a dot for blocked; a square for a wheelchair or a
// companion seat). Each look is drawn once, as a small picture (a sprite) at the canvas's scale, and
// stamped where its seats are: a whole plan is one pass over the seats writing pixels, then one
// put, where 50,000 circles as paths cost the first paint seconds of rasterising on a phone. The
// canvas has the pixels the map is shown at, more once zoomed in (canvasScale). A live change
// paints again only the seats whose look changed. The grid's cells for assistive technology and the
// keyboard stay SVG (seat-plan.tsx).
import type { Box, SeatMapView } from '../../../../contracts/seating.ts'
import { SEAT_RADIUS } from './plan-layout.ts'

type Seat = SeatMapView['sections'][number]['rows'][number]['seats'][number]

/** the canvas's longest side in pixels: sharp when the whole plan fills a phone 3 times over */
const MAX_PIXELS = 4096

/**
 * Pixels a plan unit: those it is shown at (`wanted`: screen pixels a unit times the zoom), rounded
 * up to a power of two so that small changes keep the canvas, at most 4 a unit and MAX_PIXELS a
 * side. Without `wanted` (the map not laid out yet), the most.
 */
export function canvasScale(box: Box, wanted = Number.POSITIVE_INFINITY): number {
  const most = Math.min(4, MAX_PIXELS / Math.max(box.w, box.h, 1))
  if (!(wanted > 0) || !Number.isFinite(wanted)) return most
  return Math.min(most, 2 ** Math.ceil(Math.log2(wanted)))
}

const fills = {
  free: '#4caf7d',
  held: '#e7c27d',
  sold: '#8b93a5',
  blocked: '#ffffff',
  chosen: '#1f5fbf',
} as const

/** what a seat looks like: redrawn when this changes */
export const seatLook = (seat: Seat, chosen: boolean): string => {
  const look = chosen ? 'chosen' : seat.status
  // most seats: a constant string, none made (a stadium's first paint asks 50,000 times)
  return seat.accessible ? `${look} ${seat.accessible}` : look
}

/** one seat drawn at (0, 0) in plan units */
function drawSeat(context: CanvasRenderingContext2D, seat: Seat, chosen: boolean) {
  const r = SEAT_RADIUS
  const shape = () => {
    context.beginPath()
    if (seat.accessible) context.rect(-r, -r, 2 * r, 2 * r)
    else context.arc(0, 0, r, 0, 2 * Math.PI)
  }
  const line = (width: number, colour: string, ...points: number[]) => {
    context.beginPath()
    for (let i = 0; i < points.length; i += 4) {
      context.moveTo(points[i] ?? 0, points[i + 1] ?? 0)
      context.lineTo(points[i + 2] ?? 0, points[i + 3] ?? 0)
    }
    context.lineWidth = width
    context.strokeStyle = colour
    context.stroke()
  }
  const outline = (width: number, colour: string) => {
    shape()
    context.lineWidth = width
    context.strokeStyle = colour
    context.stroke()
  }
  shape()
  context.fillStyle = chosen ? fills.chosen : fills[seat.status]
  context.fill()
  if (chosen) return outline(1.4, '#0b2a5c')
  if (seat.status === 'held') line(0.8, '#8a6514', -r * 0.7, r * 0.7, r * 0.7, -r * 0.7)
  else if (seat.status === 'sold') {
    const d = r * 0.6
    line(0.8, '#39404f', -d, -d, d, d, d, -d, -d, d)
  } else if (seat.status === 'blocked') {
    context.beginPath()
    context.arc(0, 0, r * 0.3, 0, 2 * Math.PI)
    context.fillStyle = '#5b6478'
    context.fill()
    if (!seat.accessible) outline(0.5, '#5b6478')
  }
  if (seat.accessible) outline(1, '#1f4fa0')
}

type Sprite = {
  picture: HTMLCanvasElement
  pixels: Uint32Array
  /** its painted pixels' rows and columns in it, and their values: a seat's disc is a third of its
   * square, whose other pixels a stamp skips */
  ys: Int32Array
  xs: Int32Array
  values: Uint32Array
}

/**
 * The seats of a canvas at one scale: each look drawn once on a square of `size` pixels (a seat and
 * its outline, a pixel spare), the seat's centre at its middle.
 */
export function seatPainter(box: Box, scale: number) {
  const size = Math.ceil((2 * SEAT_RADIUS + 2) * scale) + 2
  const sprites = new Map<string, Sprite>()
  const spriteOf = (seat: Seat, chosen: boolean): Sprite => {
    const look = seatLook(seat, chosen)
    let sprite = sprites.get(look)
    if (!sprite) {
      const picture = document.createElement('canvas')
      picture.width = size
      picture.height = size
      const context = picture.getContext('2d', { willReadFrequently: true })
      if (!context) throw new Error('no 2D canvas')
      context.setTransform(scale, 0, 0, scale, size / 2, size / 2)
      drawSeat(context, seat, chosen)
      const pixels = new Uint32Array(context.getImageData(0, 0, size, size).data.buffer)
      const at: number[] = []
      for (let i = 0; i < pixels.length; i++) if (pixels[i] !== 0) at.push(i)
      sprite = {
        picture,
        pixels,
        ys: Int32Array.from(at, (i) => Math.floor(i / size)),
        xs: Int32Array.from(at, (i) => i % size),
        values: Uint32Array.from(at, (i) => pixels[i] ?? 0),
      }
      sprites.set(look, sprite)
    }
    return sprite
  }
  /** the pixel of the canvas where a seat's square starts */
  const corner = (seat: Seat) => ({
    left: Math.round((seat.x - box.x) * scale - size / 2),
    top: Math.round((seat.y - box.y) * scale - size / 2),
  })
  return {
    /** every seat of a blank canvas: their pixels written into one image, put once */
    paintAll(context: CanvasRenderingContext2D, seats: readonly Seat[], chosen: ReadonlySet<string>) {
      const { width, height } = context.canvas
      const image = context.createImageData(width, height)
      const canvas = new Uint32Array(image.data.buffer)
      const none = chosen.size === 0
      for (const seat of seats) {
        const { pixels, ys, xs, values } = spriteOf(seat, !none && chosen.has(seat.id))
        // corner(seat), without an object a seat
        const left = Math.round((seat.x - box.x) * scale - size / 2)
        const top = Math.round((seat.y - box.y) * scale - size / 2)
        if (left >= 0 && top >= 0 && left + size <= width && top + size <= height) {
          // wholly inside (nearly every seat): only the sprite's painted pixels, by their places
          const origin = top * width + left
          for (let k = 0; k < values.length; k++)
            canvas[origin + (ys[k] as number) * width + (xs[k] as number)] = values[k] as number
          continue
        }
        const fromX = Math.max(0, -left)
        const toX = Math.min(size, width - left)
        for (let y = Math.max(0, -top), end = Math.min(size, height - top); y < end; y++) {
          const from = y * size
          const to = (top + y) * width + left
          for (let x = fromX; x < toX; x++) {
            const pixel = pixels[from + x] ?? 0
            if (pixel !== 0) canvas[to + x] = pixel
          }
        }
      }
      context.putImageData(image, 0, 0)
    },
    /** these seats again, each cleared first */
    paint(context: CanvasRenderingContext2D, seats: readonly Seat[], chosen: ReadonlySet<string>) {
      for (const seat of seats) {
        const { left, top } = corner(seat)
        context.clearRect(left, top, size, size)
        context.drawImage(spriteOf(seat, chosen.has(seat.id)).picture, left, top)
      }
    },
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
