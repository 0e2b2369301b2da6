// The admins' activity feed: every fact, shaped for outsiders, in ledger order.
export type ActivityItem = {
  kind: 'fact'
  position: number
  type: string
  stream: string
  at: string
  /** account id of whoever caused it, or 'system' */
  actor: string | null
  /** one line a person can read */
  summary: string
  data: Record<string, unknown>
}

/** Sent once the backlog up to the head is delivered; live facts follow. */
export type ActivityCaughtUp = { kind: 'caught-up'; position: number }
export type ActivityError = { kind: 'error'; message: string }

/**
 * To a client that keeps only the latest facts (its hello's `keep`): the latest facts since the
 * last message, at most `keep` of them, oldest first, sent at most every few hundred ms (a lone
 * fact at once). `passedOver` facts came before them in that time and were not sent; `position` is
 * the last fact's, where a new connection resumes.
 */
export type ActivityBatch = { kind: 'facts'; items: ActivityItem[]; passedOver: number; position: number }
export type ActivityMessage = ActivityItem | ActivityBatch | ActivityCaughtUp | ActivityError

/** the most facts a client may ask to keep */
export const ACTIVITY_KEEP_MAX = 200

/**
 * The first message a client sends: its token and the last position it has seen (0 for all).
 * Without `keep`, every fact is sent, one message each. With `keep` (1 to ACTIVITY_KEEP_MAX), the
 * client shows only the latest that many: it gets at most that many of the backlog, then batches
 * (ActivityBatch), so a sale of a thousand facts a second costs it a few messages a second.
 */
export type ActivityHello = { token?: string; from?: number; keep?: number }
