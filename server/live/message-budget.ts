// What one client address may send the live socket in a window: its handshakes and its messages,
// over all its sockets and reconnections. A budget per socket alone was reset by every reconnection:
// 20 sockets of one address, each sending until dropped and connecting again at once, had 42,000
// watches answered in 15 s and grew the server by 47 MB while it lasted. Counted in memory, per
// process: each process guards its own memory and time, and a message costs no Redis round trip.
// An address past its budget stays past it until its window ends, however many sockets it opens.

export type MessageBudget = {
  /** counts one message of the address: false when it is past the address's budget in this window */
  take(address: string): boolean
  /** how long until the address's window ends and it may send again (ms) */
  retryAfterMs(address: string): number
  stop(): void
}

export function messageBudget(perWindow: number, windowMs: number, now = Date.now): MessageBudget {
  const windows = new Map<string, { start: number; used: number }>()
  // Addresses whose window is over are forgotten, so the map holds only the last window's senders.
  const sweep = setInterval(() => {
    const at = now()
    for (const [address, window] of windows) if (at - window.start >= windowMs) windows.delete(address)
  }, windowMs)
  sweep.unref()

  return {
    take(address) {
      const at = now()
      let window = windows.get(address)
      if (!window || at - window.start >= windowMs) {
        window = { start: at, used: 0 }
        windows.set(address, window)
      }
      window.used++
      return window.used <= perWindow
    },
    retryAfterMs(address) {
      const window = windows.get(address)
      return window ? Math.max(1, window.start + windowMs - now()) : 0
    },
    stop() {
      clearInterval(sweep)
      windows.clear()
    },
  }
}
