// The event page's data, asked for as soon as the page is, while the app's code still loads (a
// phone spends a second or more on it): the event and its seat map, with the stored token as the
// app sends it. The app takes each reply once when it asks for the same thing with the same token
// soon after (web/src/api/early.ts); otherwise it asks again itself. The page's own code (its
// route's chunks and stylesheets, the live connection's client: the build's list below) is asked
// for too, as the app's bundles are, instead of once the app's code has run. A plain script (the
// policy allows the site's own scripts, not inline ones), run before the app's.
const PAGE_FILES = /* the build's list */ { scripts: [], styles: [] }
;(() => {
  const page = /^\/event\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname)
  if (!page) return
  // as the app's own loader asks for them (same mode, so the browser uses what it fetched here)
  const preload = (href, rel, as) => {
    const link = document.createElement('link')
    link.rel = rel
    if (as) link.as = as
    link.crossOrigin = ''
    link.href = href
    document.head.appendChild(link)
  }
  for (const href of PAGE_FILES.scripts) preload(href, 'modulepreload')
  for (const href of PAGE_FILES.styles) preload(href, 'preload', 'style')
  if (typeof fetch !== 'function') return
  let token = null
  try {
    token = localStorage.getItem('token')
  } catch {
    // no storage: a visitor
  }
  const headers = { Accept: 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  const at = performance.now()
  const replies = {}
  for (const path of [`/event/${page[1]}`, `/event/${page[1]}/seatmap`]) {
    // read whole as it comes (a body nobody reads is held back once the browser's buffer is full),
    // as bytes: the app decodes the text once
    const reply = fetch(`/api/v1${path}`, { headers, credentials: 'include' }).then(async (response) => {
      const body = response.status === 304 ? null : await response.arrayBuffer()
      const { status, statusText } = response
      return new Response(body, { status, statusText, headers: response.headers })
    })
    // a failure is the app's to see, if it takes the reply
    reply.catch(() => {})
    replies[path] = reply
  }
  window.earlyReplies = { token, at, replies }
})()
