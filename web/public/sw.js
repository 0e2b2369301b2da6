// Service worker: registered so the app can be installed, but it caches nothing. Pages, bundles
// and API replies always come from the network, so a deploy can never be hidden by a stale copy.
self.addEventListener('install', () => {
  self.skipWaiting()
})

self.addEventListener('activate', (event) => {
  // Drop caches an earlier version may have left behind, then take over open pages.
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  )
})
