// Where a plan's seats and stage lie, in the plan's own units: the box the map's SVG shows (its
// viewBox), a section's box (for its name) and the size a seat is drawn at.
import type { Box } from '../../../../contracts/seating.ts'

/** what a plan needs to be laid out: its stage and its seats' positions */
export type PlacedPlan = {
  stage: Box | null | undefined
  sections: ReadonlyArray<{ rows: ReadonlyArray<{ seats: ReadonlyArray<{ x?: number; y?: number }> }> }>
}

/** the distance between two seats' centres the editor lays rows out with; a seat is drawn a bit smaller */
export const SEAT_PITCH = 10
export const SEAT_RADIUS = 4
/** room around the plan, for the seats' outlines and the sections' names */
export const PLAN_MARGIN = 14

type Bounds = { minX: number; minY: number; maxX: number; maxY: number }

const empty = (): Bounds => ({ minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity })

const grow = (bounds: Bounds, x: number, y: number) => {
  if (x < bounds.minX) bounds.minX = x
  if (y < bounds.minY) bounds.minY = y
  if (x > bounds.maxX) bounds.maxX = x
  if (y > bounds.maxY) bounds.maxY = y
}

const boxOf = (bounds: Bounds, margin: number): Box =>
  bounds.minX === Infinity
    ? { x: -margin, y: -margin, w: 2 * margin, h: 2 * margin }
    : {
        x: bounds.minX - margin,
        y: bounds.minY - margin,
        w: bounds.maxX - bounds.minX + 2 * margin,
        h: bounds.maxY - bounds.minY + 2 * margin,
      }

/**
 * The map's viewBox (the box that holds every seat and the stage, with a margin) and each section's
 * box (its seats' centres, widened by a seat's radius), from one pass over the seats: a stadium's
 * 50,000 are read once, not once for each.
 */
export function planBoxes(plan: PlacedPlan, margin = PLAN_MARGIN): { box: Box; sections: Box[] } {
  const whole = empty()
  const sections = plan.sections.map((section) => {
    let minX = Infinity
    let minY = Infinity
    let maxX = -Infinity
    let maxY = -Infinity
    for (const row of section.rows) {
      for (const seat of row.seats) {
        const x = seat.x ?? 0
        const y = seat.y ?? 0
        if (x < minX) minX = x
        if (x > maxX) maxX = x
        if (y < minY) minY = y
        if (y > maxY) maxY = y
      }
    }
    if (minX !== Infinity) {
      grow(whole, minX, minY)
      grow(whole, maxX, maxY)
    }
    return boxOf({ minX, minY, maxX, maxY }, SEAT_RADIUS)
  })
  if (plan.stage) {
    grow(whole, plan.stage.x, plan.stage.y)
    grow(whole, plan.stage.x + plan.stage.w, plan.stage.y + plan.stage.h)
  }
  return { box: boxOf(whole, margin), sections }
}

/** the seats' box of one section */
export const sectionBox = (section: PlacedPlan['sections'][number]): Box =>
  planBoxes({ stage: null, sections: [section] }).sections[0] as Box

/** the map's viewBox */
export const planBox = (plan: PlacedPlan, margin = PLAN_MARGIN): Box => planBoxes(plan, margin).box

/**
 * How many rows, in the plan's order, to draw after `drawn` are drawn: at least one more, and as
 * many more as hold about `seats` seats (a big plan is drawn a part a frame, never in one long task).
 */
export function rowsToDraw(plan: Pick<PlacedPlan, 'sections'>, drawn: number, seats: number): number {
  let index = 0
  let count = 0
  for (const section of plan.sections) {
    for (const row of section.rows) {
      index += 1
      if (index <= drawn) continue
      count += row.seats.length
      if (count >= seats) return index
    }
  }
  return index
}

/** a stage above the sections: as wide as half the seats' span (at least 40), centred on them */
export function stageAbove(plan: PlacedPlan, height = 16, distance = 24): Box | null {
  if (plan.sections.length === 0) return null
  const seats = planBox({ stage: null, sections: plan.sections }, 0)
  const w = Math.max(40, Math.round(seats.w / 2))
  return { x: Math.round(seats.x + seats.w / 2 - w / 2), y: seats.y - distance - height, w, h: height }
}
