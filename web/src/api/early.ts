// What web/public/early.js asked for before the app's code arrived (the event page's event and
// seat map): each reply is taken once, by the app's first request of the same path with the same
// token, while it is fresh; any other request asks the server itself.

/** how long after it was asked an early reply may stand in for the app's own request */
const FRESH_MS = 10_000

type Early = { token: string | null; at: number; replies: Record<string, Promise<Response> | undefined> }

/** an early reply to a GET of `path` (under /api/v1) made with `token`, and when it was asked for */
export function takeEarly(
  path: string,
  token: string | null,
): { response: Promise<Response>; askedAt: number } | undefined {
  const early = (globalThis as { earlyReplies?: Early }).earlyReplies
  const response = early?.replies[path]
  if (!early || !response) return undefined
  early.replies[path] = undefined
  if (early.token !== token || performance.now() - early.at > FRESH_MS) return undefined
  return { response, askedAt: early.at }
}
