// The seat maps' limits (issue 40), apart from their schemas: a page that only needs a number
// (the booking page's search parameters) does not load every seating schema with it.

/** the most seats a plan may hold (a stadium's) */
export const MAX_PLAN_SEATS = 100_000
/** the most seats one order may name */
export const MAX_SEATS_PER_ORDER = 20
