// A fetch repeated on live pushes: while one is running, any number of further asks make exactly
// one more run after it (a burst of sales is one or two refetches, not one per sale), and a failed
// refetch keeps what is already on screen.
import { useCallback, useEffect, useRef, useState } from 'react'

export type Load<T> =
  | { state: 'loading' }
  | { state: 'loaded'; value: T }
  | { state: 'failed'; error: unknown }

export function useCoalescedLoad<T>(fetcher: () => Promise<T>): { load: Load<T>; refetch: () => void } {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' })
  const fetcherRef = useRef(fetcher)
  fetcherRef.current = fetcher
  const running = useRef(false)
  const again = useRef(false)
  const mounted = useRef(false)

  const refetch = useCallback(() => {
    if (running.current) {
      again.current = true
      return
    }
    running.current = true
    void (async () => {
      do {
        again.current = false
        try {
          const value = await fetcherRef.current()
          if (mounted.current) setLoad({ state: 'loaded', value })
        } catch (error) {
          if (mounted.current)
            setLoad((previous) => (previous.state === 'loaded' ? previous : { state: 'failed', error }))
        }
      } while (again.current && mounted.current)
      running.current = false
    })()
  }, [])

  useEffect(() => {
    mounted.current = true
    refetch()
    return () => {
      mounted.current = false // answers arriving after unmount are dropped
    }
  }, [refetch])

  return { load, refetch }
}
