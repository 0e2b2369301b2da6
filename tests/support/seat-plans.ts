// Seat plans for the tests (issue 40): a section drawn as a grid, as PUT /event/{id}/seatmap takes it.

/**
 * A section of `rows` rows (A, B, …) of `seats` seats numbered from 1; a seat's x is its index times
 * `pitch`, its y the row's (from `top`) times `pitch`.
 */
export const gridSection = (
  name: string,
  ticketType: string,
  rows: number,
  seats: number,
  top = 0,
  pitch = 1,
) => ({
  name,
  ticketType,
  rows: Array.from({ length: rows }, (_, r) => ({
    label: String.fromCharCode(65 + r),
    seats: Array.from({ length: seats }, (_, s) => ({ number: s + 1, x: s * pitch, y: (top + r) * pitch })),
  })),
})
