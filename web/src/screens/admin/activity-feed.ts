// A client of the admins' activity feed (GET /api/v1/activity, a plain WebSocket): it says hello
// with its token and the last position it has seen, keeps the latest facts, and after a dropped
// connection comes back with growing pauses from that position, so nothing is missed or doubled.
// A refusal (4401 not signed in, 4403 not an admin) is final.
import type { ActivityItem, ActivityMessage } from '../../../../contracts/activity.ts'

export type FeedStatus = 'connecting' | 'catching-up' | 'live' | 'reconnecting' | 'refused'

export type FeedState = {
  /** newest first, at most `keep` */
  items: ActivityItem[]
  /** the last position seen: where a new connection resumes */
  position: number
  status: FeedStatus
  /** the server's words when it refused the feed */
  refusal: string | null
}

type Socketish = Pick<WebSocket, 'send' | 'close' | 'readyState'> & {
  onopen: ((event: Event) => void) | null
  onmessage: ((event: MessageEvent) => void) | null
  onclose: ((event: CloseEvent) => void) | null
  onerror: ((event: Event) => void) | null
}

export type FeedOptions = {
  url: string
  token: string
  /** how many facts to keep (the latest) */
  keep?: number
  /** where to resume, and what was shown before (a remounted panel) */
  resume?: { position: number; items: ActivityItem[] }
  onChange(state: FeedState): void
  /** first pause before reconnecting; it doubles up to maxDelayMs */
  initialDelayMs?: number
  maxDelayMs?: number
  openSocket?: (url: string) => Socketish
}

/** the least time between two updates of the screen while facts arrive live */
export const LIVE_EMIT_MS = 200

/** close codes that mean "not you": retrying would only be refused again */
const REFUSED = new Set([4401, 4403])

/** ws:// or wss:// to the feed on this page's own origin */
export function activityFeedUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/activity`
}

export function openActivityFeed(options: FeedOptions): { close(): void } {
  const keep = options.keep ?? 50
  const initialDelay = options.initialDelayMs ?? 1000
  const maxDelay = options.maxDelayMs ?? 30_000
  const openSocket = options.openSocket ?? ((url: string) => new WebSocket(url))

  // oldest first internally; handed out newest first
  let items = [...(options.resume?.items ?? [])].reverse().slice(-keep)
  let position = options.resume?.position ?? 0
  let status: FeedStatus = 'connecting'
  let refusal: string | null = null
  let socket: Socketish | null = null
  let attempts = 0
  let closed = false
  let retry: ReturnType<typeof setTimeout> | null = null
  let flush: ReturnType<typeof setTimeout> | null = null

  let lastEmit = Number.NEGATIVE_INFINITY
  const emitNow = () => {
    if (flush) clearTimeout(flush)
    flush = null
    if (closed) return
    lastEmit = Date.now()
    options.onChange({ items: items.slice(-keep).reverse(), position, status, refusal })
  }
  /** while catching up a long backlog, the screen is updated a few times a second, not per fact */
  const emitSoon = () => {
    flush ??= setTimeout(emitNow, 150)
  }
  /**
   * live: a fact is shown at once, but a sale's thousands of facts a second are shown a few times
   * a second, not one render of the panel per fact (that took most of an admin tab's time mid-sale)
   */
  const emitLive = () => {
    const wait = lastEmit + LIVE_EMIT_MS - Date.now()
    if (wait <= 0 && !flush) emitNow()
    else flush ??= setTimeout(emitNow, Math.max(0, wait))
  }

  const connect = () => {
    retry = null
    if (closed) return
    status = attempts === 0 ? 'connecting' : 'reconnecting'
    emitNow()
    let caughtUp = false
    const current = openSocket(options.url)
    socket = current
    current.onopen = () => {
      // only the latest `keep` are shown: the server sends no more than that (ActivityBatch)
      current.send(JSON.stringify({ token: options.token, from: position, keep }))
      status = 'catching-up'
      emitNow()
    }
    current.onmessage = (event) => {
      let message: ActivityMessage
      try {
        message = JSON.parse(String(event.data))
      } catch {
        return
      }
      const shown = () => {
        if (items.length > keep * 2) items = items.slice(-keep)
        if (caughtUp) emitLive()
        else emitSoon()
      }
      // Facts come in the order the server reads the ledger, which on PostgreSQL is not always
      // position order (a fact can commit, and come, after one at a higher position): the feed
      // resumes from the last position it was sent, not the highest, and a fact is known again by
      // its position, not by being below the highest.
      const known = (item: { position: number }) =>
        items.some((shownItem) => shownItem.position === item.position)
      switch (message.kind) {
        case 'fact':
          if (known(message)) return
          position = message.position
          items.push(message)
          shown()
          return
        case 'facts':
          for (const item of message.items) if (!known(item)) items.push(item)
          position = message.position
          shown()
          return
        case 'caught-up':
          caughtUp = true
          attempts = 0
          position = message.position
          status = 'live'
          items = items.slice(-keep)
          emitNow()
          return
        case 'error':
          refusal = message.message
          return
        default:
          return message satisfies never
      }
    }
    current.onerror = () => {
      // followed by close, where the retry is decided
    }
    current.onclose = (event) => {
      if (socket === current) socket = null
      if (closed) return
      items = items.slice(-keep)
      if (REFUSED.has(event.code)) {
        status = 'refused'
        refusal ??= event.reason || 'The activity feed is not available to you.'
        emitNow()
        return
      }
      refusal = null
      const delay = Math.min(maxDelay, initialDelay * 2 ** attempts)
      attempts++
      status = 'reconnecting'
      emitNow()
      // a little jitter, so that many admins' tabs do not come back in one wave
      retry = setTimeout(connect, delay * (0.8 + Math.random() * 0.4))
    }
  }

  connect()

  return {
    close() {
      closed = true
      if (retry) clearTimeout(retry)
      if (flush) clearTimeout(flush)
      const current = socket
      socket = null
      current?.close(1000, 'bye')
    },
  }
}
