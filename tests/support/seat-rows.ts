// The seats' rows as the seats say (issue 40): each seat_rows row's record (one character a seat, at
// its slot) and free count must be what its seats' statuses are now. Checked by the seating tests
// and by the fault runs' invariants.
import { ROW_SEAT, rowSeat, type SeatSale } from '../../server/seating/tables.ts'
import { dbRows, type HasStore } from './db.ts'

export type SeatOfRow = {
  event_id: string
  ticket_type_id: string
  row_label: string
  seat_id: string
  ord: number
  slot: number
  blocked: number | boolean
  status: SeatSale
}

export type RowRecord = {
  event_id: string
  ticket_type_id: string
  row_label: string
  free: number
  taken: string
}

export const seatsOfRowsSql =
  'SELECT event_id, ticket_type_id, row_label, seat_id, ord, slot, blocked, status FROM seats'
export const rowRecordsSql = 'SELECT event_id, ticket_type_id, row_label, free, taken FROM seat_rows'

/**
 * What differs between the rows' records and their seats: a row whose record is not its seats'
 * characters in the plan's order (each at its slot), whose free count is not its free unblocked
 * seats, or a row of seats with no record. Empty when they agree.
 */
export function rowRecordsDisagreeing(seats: readonly SeatOfRow[], rows: readonly RowRecord[]): string[] {
  const byRow = new Map<string, SeatOfRow[]>()
  const keyOf = (r: { event_id: string; ticket_type_id: string; row_label: string }) =>
    JSON.stringify([r.event_id, r.ticket_type_id, r.row_label])
  for (const seat of seats) {
    const list = byRow.get(keyOf(seat)) ?? []
    list.push(seat)
    byRow.set(keyOf(seat), list)
  }
  const disagreeing: string[] = []
  for (const row of rows) {
    const name = `row ${row.row_label} of ${row.ticket_type_id} (event ${row.event_id})`
    const ofRow = [...(byRow.get(keyOf(row)) ?? [])].sort((a, b) => Number(a.ord) - Number(b.ord))
    byRow.delete(keyOf(row))
    const slots = ofRow.map((s) => Number(s.slot))
    if (slots.some((slot, i) => slot !== i))
      disagreeing.push(`${name}: slots ${slots.join(',')} in the plan's order`)
    const record = ofRow.map((s) => rowSeat(s.status, s.blocked === true || Number(s.blocked) === 1)).join('')
    if (row.taken !== record) disagreeing.push(`${name}: record "${row.taken}", seats "${record}"`)
    const free = [...record].filter((c) => c === ROW_SEAT.free).length
    if (Number(row.free) !== free) disagreeing.push(`${name}: free ${row.free}, seats free ${free}`)
  }
  for (const key of byRow.keys()) disagreeing.push(`row ${key}: seats without a row record`)
  return disagreeing
}

/** The same, read from the app's store. */
export async function seatRowsDisagreeing(app: HasStore): Promise<string[]> {
  return rowRecordsDisagreeing(
    await dbRows<SeatOfRow>(app, seatsOfRowsSql),
    await dbRows<RowRecord>(app, rowRecordsSql),
  )
}
