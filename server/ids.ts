// Ids and stream names: one helper per kind, joined with '-', so the same string can name a
// stream, a BullMQ job and a Socket.IO room.
import { randomBytes } from 'node:crypto'

/** 24 hex characters, time-ordered like a MongoDB ObjectId (clients treat it as an opaque string). */
export function newId(now = Date.now()): string {
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0')
  return seconds + randomBytes(8).toString('hex')
}

export const streams = {
  account: (id: string) => `account-${id}`,
  event: (id: string) => `event-${id}`,
  order: (id: string) => `order-${id}`,
  ticket: (id: string) => `ticket-${id}`,
  inquiry: (id: string) => `inquiry-${id}`,
  session: (id: string) => `session-${id}`,
  notice: (id: string) => `notice-${id}`,
  /** the waiting list of one ticket type (issue 17) */
  waitlist: (ticketTypeId: string) => `waitlist-${ticketTypeId}`,
}

/** The id part of a stream name: everything after the first '-'. */
export const idOf = (stream: string) => stream.slice(stream.indexOf('-') + 1)
