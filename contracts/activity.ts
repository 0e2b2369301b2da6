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
export type ActivityMessage = ActivityItem | ActivityCaughtUp | ActivityError

/** The first message a client sends: its token and the last position it has seen (0 for all). */
export type ActivityHello = { token?: string; from?: number }
