// The seat maps' read models (issue 40), declared once for both stores (db/read-model.ts): an
// event's plan (its version, stage and sections in order) and one row per seat with its status now.
// A seat's status is free, held or sold; blocked is the plan's, not a status a sale moves.
import { sql } from 'drizzle-orm'
import type { Box, SeatNumber } from '../../contracts/seating.ts'
import { type RowOf, readModelTable } from '../db/read-model.ts'

export type SeatSale = 'free' | 'held' | 'sold'

export const seatMaps = readModelTable('seat_maps', (k) => ({
  eventId: k.text('event_id').primaryKey(),
  version: k.integer('version').notNull(),
  stage: k.json<Box | null>('stage'),
  /** the sections in the plan's order */
  sections: k.json<Array<{ name: string; ticketTypeId: string }>>('sections').notNull(),
}))

export const seats = readModelTable(
  'seats',
  (k) => ({
    eventId: k.text('event_id').notNull(),
    seatId: k.text('seat_id').notNull(),
    section: k.text('section').notNull(),
    ticketTypeId: k.text('ticket_type_id').notNull(),
    rowLabel: k.text('row_label').notNull(),
    number: k.json<SeatNumber>('number').notNull(),
    x: k.real('x').notNull(),
    y: k.real('y').notNull(),
    blocked: k.boolean('blocked').notNull(),
    /** wheelchair or companion; null: not an accessible seat */
    accessible: k.text('accessible').$type<'wheelchair' | 'companion'>(),
    /** the seat's place in the plan (sections, rows and seats in the order given) */
    ord: k.integer('ord').notNull(),
    /** its place in its row (0 for the row's first in the plan's order): its character in seat_rows.taken */
    slot: k.integer('slot').notNull(),
    /** the plan version that placed it last: seats of an older plan are gone from it */
    planVersion: k.integer('plan_version').notNull(),
    status: k.text('status').notNull().$type<SeatSale>(),
    /** the order holding or owning it */
    orderId: k.text('order_id'),
  }),
  (t, i) => [
    i.primaryKey({ columns: [t.eventId, t.seatId] }),
    i.index('seats_in_order').on(t.eventId, t.ord),
    i.index('seats_of_order').on(t.orderId),
    // a row's seats in order (no sale moves an entry: a seat's status is not in it)
    i.index('seats_in_row').on(t.eventId, t.ticketTypeId, t.rowLabel, t.ord),
    // the seats held or sold, by row: read alone by the map and by a hold (a stadium's are mostly free)
    i
      .index('seats_taken')
      .on(t.eventId, t.ticketTypeId, t.rowLabel, t.seatId, t.status)
      .where(sql`${t.status} <> 'free'`),
  ],
)

/**
 * Each row of a section with its seats free now (not blocked): where the best seats for n are
 * looked for, without reading a stadium's section whole at every hold.
 */
export const seatRows = readModelTable(
  'seat_rows',
  (k) => ({
    eventId: k.text('event_id').notNull(),
    ticketTypeId: k.text('ticket_type_id').notNull(),
    rowLabel: k.text('row_label').notNull(),
    /** the row's place: its front (least y) and its first seat in the plan's order */
    y: k.real('y').notNull(),
    ord: k.integer('ord').notNull(),
    /** how far the row is from the stage (its plan's, fixed with it): the nearest are looked at first */
    rank: k.real('rank').notNull(),
    free: k.integer('free').notNull(),
    /**
     * The row's seats now, one character each in the row's order (a seat's slot): free, blocked
     * (free, not on sale) or taken (held or sold): ROW_SEAT. A hold reads this, not the row's seats
     * (a stadium row's taken seats were most of what it read); `free` counts its free characters.
     */
    taken: k.text('taken').notNull(),
  }),
  (t, i) => [
    i.primaryKey({ columns: [t.eventId, t.ticketTypeId, t.rowLabel] }),
    // the rows with room, nearest the stage first (a full row is not read past), covering what the
    // hold reads of them
    i
      .index('seat_rows_with_room')
      .on(t.eventId, t.ticketTypeId, t.rank, t.ord, t.free, t.rowLabel)
      .where(sql`${t.free} > 0`),
  ],
)

export type SeatRow = RowOf<typeof seats>

/** a seat's character in its row's record (seat_rows.taken): taken (held or sold), blocked or free */
export const ROW_SEAT = { free: '.', blocked: '#', taken: 'x' } as const

/** the character of a seat with this sale: a taken seat is taken, blocked or not */
export const rowSeat = (status: SeatSale, blocked: boolean): string =>
  status !== 'free' ? ROW_SEAT.taken : blocked ? ROW_SEAT.blocked : ROW_SEAT.free
