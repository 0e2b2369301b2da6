// A piece of the app's code fetched on demand (a screen, the live connection's client, the toasts)
// survives a network blip: a failed fetch is tried again, once the browser is back online, after
// 0.5, 1, 2 and 4 s. Without this one failed chunk broke the page for good: a rejected import
// stays rejected, and thrown in a render it takes the whole frame down (seen in the live-state
// e2e test: a page that went offline while its notice listener's chunk loaded never recovered).

import { lazyRouteComponent } from '@tanstack/react-router'
import { lazy } from 'react'

const ATTEMPTS = 5

const whenOnline = () =>
  typeof navigator === 'undefined' || navigator.onLine
    ? Promise.resolve()
    : new Promise<void>((resolve) => window.addEventListener('online', () => resolve(), { once: true }))

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function retryImport<T>(load: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await load()
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error
      await whenOnline()
      await pause(500 * 2 ** (attempt - 1))
    }
  }
}

/** React.lazy over retryImport */
export const lazyRetry: typeof lazy = (load) => lazy(() => retryImport(load))

/** a route's screen: TanStack Router's lazyRouteComponent over retryImport */
export const lazyScreen: typeof lazyRouteComponent = (importer, exportName) =>
  lazyRouteComponent(() => retryImport(importer), exportName)
