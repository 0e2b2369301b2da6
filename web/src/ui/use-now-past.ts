// The time now for a screen that changes at known instants (a sale's opening, an admission's end):
// read again as each instant passes, with nothing ticking in between.
import { useEffect, useState } from 'react'

/** a timer's longest wait (about 24.8 days): a later instant is waited for in steps */
const LONGEST_WAIT_MS = 2 ** 31 - 1

/** the time now, read again as each of `instants` (ms since the epoch) passes */
export function useNowPast(instants: readonly number[]): number {
  const [now, setNow] = useState(() => Date.now())
  const next = Math.min(...instants.filter((at) => at > now))
  useEffect(() => {
    // run again with `now` too: a wait cut at the timer's longest goes on from where it stopped
    if (!Number.isFinite(next) || next <= now) return
    const timer = setTimeout(() => setNow(Date.now()), Math.min(next - Date.now() + 50, LONGEST_WAIT_MS))
    return () => clearTimeout(timer)
  }, [next, now])
  return now
}
