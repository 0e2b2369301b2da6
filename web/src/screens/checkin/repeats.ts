// A camera sees the pass held up to it ten times a second: one read is a scan, and the same code is
// scanned again only once it has been out of sight for a while (held up again, it says "Already
// admitted", as it should). Typed codes are always scanned.

/** how long a code must go unseen before the camera scans it again, in ms */
export const UNSEEN_MS = 2500

export type RepeatFilter = {
  /** whether this read of `code` at `at` (ms) is a new scan */
  isNew(code: string, at: number): boolean
}

export function repeatFilter(unseenMs = UNSEEN_MS): RepeatFilter {
  const lastSeen = new Map<string, number>()
  return {
    isNew(code, at) {
      const before = lastSeen.get(code)
      lastSeen.set(code, at)
      // forget codes long gone, so a night of scans keeps a short list
      for (const [known, seen] of lastSeen) if (at - seen > unseenMs) lastSeen.delete(known)
      return before === undefined || at - before > unseenMs
    },
  }
}
