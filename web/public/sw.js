// Service worker, registered twice with two scopes:
//   '/' (web/src/main.tsx), so the app can be installed: it keeps nothing and handles no request,
//     so an ordinary visitor downloads nothing more and every page and bundle comes from the
//     network, as before;
//   '/checkin/' (the check-in screen, issue 16), the door: it keeps the app shell (the built
//     index.html, every bundle and stylesheet, the public files) so the check-in screen opens with
//     no network after one online visit. Only a device that opened the door pays for the shell.
// The build writes the list of files and a version into SHELL below (web/vite.config.ts); a new
// build is a new worker whose install keeps its own files and whose activation drops the door's
// older copies. The door's worker answers:
//   pages (navigations): the network first, the kept index.html when it fails or takes too long;
//   files of the shell (/assets/*, the public files): the cache first, then the network;
//   the API, the live socket and uploads: never touched, always the network.
const SHELL = /* the build's list */ { version: 'dev', files: [] }

const DOOR = new URL(self.registration.scope).pathname === '/checkin/'
const PREFIX = 'door-shell-'
const CACHE = `${PREFIX}${SHELL.version}`
const INDEX = '/index.html'
/** how long a page may take before the kept one is shown (a door on a weak signal) */
const NAVIGATION_TIMEOUT_MS = 4000
const NEVER = ['/api/', '/socket.io/', '/uploads/']

self.addEventListener('install', (event) => {
  const kept = DOOR
    ? caches
        .open(CACHE)
        .then((cache) => cache.addAll(SHELL.files.map((file) => new Request(file, { cache: 'reload' }))))
    : Promise.resolve()
  event.waitUntil(kept.then(() => self.skipWaiting()))
})

self.addEventListener('activate', (event) => {
  // the door drops its older shells; the root worker leaves the door's alone
  const dropped = DOOR
    ? caches
        .keys()
        .then((names) =>
          Promise.all(
            names
              .filter((name) => name.startsWith(PREFIX) && name !== CACHE)
              .map((name) => caches.delete(name)),
          ),
        )
    : Promise.resolve()
  event.waitUntil(dropped.then(() => self.clients.claim()))
})

/** the network's answer, or a failure when it has none within `ms` */
const fetchWithin = (request, ms) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The network took too long.')), ms)
    fetch(request).then(
      (response) => {
        clearTimeout(timer)
        resolve(response)
      },
      (error) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })

async function page(request) {
  let response = null
  try {
    response = await fetchWithin(request, NAVIGATION_TIMEOUT_MS)
  } catch {
    response = null
  }
  // no network, or a proxy whose app server is away (502, 503, 504): the kept app
  if (response && response.status < 502) return response
  const kept = await caches.match(INDEX, { cacheName: CACHE, ignoreVary: true })
  return kept ?? response ?? Response.error()
}

// ignoreVary: the server's answers vary by Origin (CORS), and a module script's request carries one
// while the install's did not; the shell's files are the same whoever asks.
async function shellFile(request) {
  const kept = await caches.match(request, { cacheName: CACHE, ignoreVary: true })
  if (kept) return kept
  const response = await fetch(request)
  // a hashed bundle this build did not list (an older page's lazy chunk): kept for next time
  if (response.ok && new URL(request.url).pathname.startsWith('/assets/')) {
    const copy = response.clone()
    void caches.open(CACHE).then((cache) => cache.put(request, copy))
  }
  return response
}

// A worker with no fetch handler is skipped by the browser: the root worker costs no request.
if (DOOR)
  self.addEventListener('fetch', (event) => {
    const { request } = event
    if (request.method !== 'GET') return
    const url = new URL(request.url)
    if (url.origin !== self.location.origin) return
    if (NEVER.some((prefix) => url.pathname.startsWith(prefix))) return
    if (request.mode === 'navigate') {
      event.respondWith(page(request))
      return
    }
    if (url.pathname.startsWith('/assets/') || SHELL.files.includes(url.pathname)) {
      event.respondWith(shellFile(request))
    }
  })
