// The waiting room's live messages (issue 41), checked by hand so that the live follower, loaded
// with every page, carries no schema: `queue`, a buyer's place in an event's line, and `queue-stats`,
// the organizer's figures of it.
import type { QueuePlace, QueuePush, QueueState, QueueStatsPush } from '../../../contracts/queue.ts'

const states = new Set<string>([
  'pre-queue',
  'waiting',
  'admitted',
  'expired',
  'closed',
] satisfies QueueState[])

const record = (data: unknown): Record<string, unknown> | null =>
  typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : null
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

/** a `queue` message's data, or null when it is not one */
export function queuePushOf(data: unknown): QueuePush | null {
  const message = record(data)
  if (!message || typeof message.eventId !== 'string' || !states.has(message.state as string)) return null
  const push: QueuePush = { eventId: message.eventId, state: message.state as QueueState }
  if (isNumber(message.position)) push.position = message.position
  if (isNumber(message.ahead)) push.ahead = message.ahead
  if (isNumber(message.etaSeconds)) push.etaSeconds = message.etaSeconds
  if (typeof message.admissionExpiresAt === 'string') push.admissionExpiresAt = message.admissionExpiresAt
  if (message.paused === true) push.paused = true
  return push
}

/** the place a push tells, without the event it is for */
export function placeOfPush({ eventId: _, ...place }: QueuePush): QueuePlace {
  return place
}

/** a `queue-stats` message's data, or null when it is not one */
export function queueStatsPushOf(data: unknown): QueueStatsPush | null {
  const message = record(data)
  if (!message || typeof message.eventId !== 'string') return null
  const { eventId, waiting, admitted, inCheckout, sold, admitPerMinute, paused } = message
  if (![waiting, admitted, inCheckout, sold].every(isNumber) || typeof paused !== 'boolean') return null
  if (admitPerMinute !== null && !isNumber(admitPerMinute)) return null
  return {
    eventId,
    waiting: waiting as number,
    admitted: admitted as number,
    inCheckout: inCheckout as number,
    sold: sold as number,
    admitPerMinute,
    paused,
  }
}
