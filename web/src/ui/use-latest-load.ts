// A fetch that may be repeated (on live pushes and reconnections): only the newest answer counts,
// and a failed refetch keeps what is already on screen.
import { useCallback, useEffect, useRef, useState } from 'react'

export type Load<T> =
  | { state: 'loading' }
  | { state: 'loaded'; value: T }
  | { state: 'failed'; error: unknown }

export function useLatestLoad<T>(fetcher: () => Promise<T>): {
  load: Load<T>
  refetch: () => void
  setValue: (update: (value: T) => T) => void
} {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' })
  const latest = useRef(0)
  const fetcherRef = useRef(fetcher)
  fetcherRef.current = fetcher

  const refetch = useCallback(() => {
    const ticket = ++latest.current
    fetcherRef.current().then(
      (value) => {
        if (ticket === latest.current) setLoad({ state: 'loaded', value })
      },
      (error: unknown) => {
        if (ticket !== latest.current) return
        setLoad((previous) => (previous.state === 'loaded' ? previous : { state: 'failed', error }))
      },
    )
  }, [])

  useEffect(() => {
    refetch()
    return () => {
      latest.current++ // answers arriving after unmount are dropped
    }
  }, [refetch])

  const setValue = useCallback((update: (value: T) => T) => {
    setLoad((previous) =>
      previous.state === 'loaded' ? { state: 'loaded', value: update(previous.value) } : previous,
    )
  }, [])

  return { load, refetch, setValue }
}
