// Ids and stream names: one helper per kind, joined with '-', so the same string can name a
// stream, a BullMQ job and a Socket.IO room.
import { randomBytes } from 'node:crypto'

/**
 * Random bytes drawn from the system 4 kB at a time: one call per 512 ids, not one per id, as
 * Node's randomUUID does (a flash sale makes ids for every hold; the call per id was ~2% of its
 * CPU profile).
 */
const POOL_BYTES = 4096
let pool = Buffer.alloc(0)
let used = 0

/** 24 hex characters, time-ordered like a MongoDB ObjectId (clients treat it as an opaque string). */
export function newId(now = Date.now()): string {
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0')
  return seconds + randomPooled(8).toString('hex')
}

/** `bytes` (at most 64) random bytes from the pool, to be read at once (the pool's memory is reused) */
export function randomPooled(bytes: number): Buffer {
  if (used + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES)
    used = 0
  }
  used += bytes
  return pool.subarray(used - bytes, used)
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
  /** an event's sale time and waiting room (issue 41) */
  room: (eventId: string) => `room-${eventId}`,
  /** an organizer's billing profile (issue 42) */
  billing: (organizerId: string) => `billing-${organizerId}`,
  /** the platform's booking fee, as its admins set it (issue 42) */
  bookingFee: () => 'booking-fee',
  /** an account's API tokens (issue 43) */
  tokens: (accountId: string) => `tokens-${accountId}`,
  /** an organizer's webhook endpoints, and one endpoint's deliveries (issue 43) */
  webhooks: (organizerId: string) => `webhooks-${organizerId}`,
  webhook: (endpointId: string) => `webhook-${endpointId}`,
}

/** The id part of a stream name: everything after the first '-'. */
export const idOf = (stream: string) => stream.slice(stream.indexOf('-') + 1)
