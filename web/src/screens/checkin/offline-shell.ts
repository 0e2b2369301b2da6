// The door's offline copy of the app (issue 16): the service worker registered for the check-in
// pages alone (scope /checkin/, web/public/sw.js) keeps the app shell, so this screen opens again
// with no network. Registered only here, so only the devices used at a door download the shell.
// The screen says when the copy is ready: a device taken offline before that could not reopen it.
// Development builds serve modules one by one: nothing is kept there.
import { useEffect, useState } from 'react'

const SCOPE = '/checkin/'

export type OfflineCopy = 'ready' | 'preparing' | 'unavailable'

export const offlineCopyTexts: Record<OfflineCopy, string> = {
  ready: 'Ready',
  preparing: 'Getting ready…',
  unavailable: 'Not available',
}

const supported = () => 'serviceWorker' in navigator && import.meta.env.PROD

function stateOf(registration: ServiceWorkerRegistration): OfflineCopy {
  if (registration.active) return 'ready'
  return registration.installing || registration.waiting ? 'preparing' : 'unavailable'
}

/**
 * Registers the door's worker (again whenever the network comes back and the copy is not ready:
 * an install cut short by a lost network is tried anew) and follows it to ready.
 */
export function useOfflineCopy(online: boolean): OfflineCopy {
  const [copy, setCopy] = useState<OfflineCopy>(() => (supported() ? 'preparing' : 'unavailable'))
  const ready = copy === 'ready'
  useEffect(() => {
    if (!supported() || !online || ready) return
    let open = true
    const follow = (registration: ServiceWorkerRegistration) => {
      const check = () => {
        if (open) setCopy(stateOf(registration))
      }
      const watch = (worker: ServiceWorker | null) => worker?.addEventListener('statechange', check)
      watch(registration.installing)
      watch(registration.waiting)
      registration.addEventListener('updatefound', () => {
        watch(registration.installing)
        check()
      })
      check()
    }
    navigator.serviceWorker
      .register('/sw.js', { scope: SCOPE })
      .then(follow)
      .catch(() => {
        if (open) setCopy('unavailable')
      })
    return () => {
      open = false
    }
  }, [online, ready])
  return copy
}
