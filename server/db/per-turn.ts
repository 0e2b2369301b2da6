// Writes of one turn of the event loop committed together: each caller's item is queued, the
// queue is written in one transaction on the next turn, and every caller is answered once that
// commit is done (or told why it failed). With FULL durability a commit is an fsync that holds the
// event loop; writes arriving together (a flash sale's checkouts, the mail queue's jobs running
// several at once) share one.
export function committedPerTurn<T>(commit: (items: T[]) => void): (item: T) => Promise<void> {
  let queued: T[] = []
  let committed: Promise<void> | null = null
  return (item) => {
    queued.push(item)
    committed ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        const items = queued
        queued = []
        committed = null
        try {
          commit(items)
          resolve()
        } catch (error) {
          reject(error)
        }
      })
    })
    return committed
  }
}
