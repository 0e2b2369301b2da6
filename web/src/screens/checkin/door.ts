// One check-in door: decides each scan at once from the manifest and what it admitted before
// (decide.ts), keeps it (door-store.ts), shows it, and sends the waiting scans to the server in
// batches whenever it can; the server's answers replace its own. A failed send is tried again
// with a growing wait (a retried batch is safe: the server knows a scan again by device, code and
// scannedAt). No React here: the screen subscribes to its snapshots.

import { MAX_CODE_LENGTH } from '../../../../contracts/pass-code.ts'
import type { Manifest, Scan, ScanReply } from '../../api/checkin.ts'
import { decideScan } from './decide.ts'
import type { DoorStore } from './door-store.ts'
import { importPassKey, parsePassCode, verifyPassCode } from './pass-code.ts'
import { type PassList, passListOf } from './pass-list.ts'
import {
  admittedPasses,
  answered,
  nextBatch,
  retryable,
  retryDelay,
  type ScanRecord,
  scanOf,
  waiting,
  withUpdates,
} from './scan-log.ts'

export type SyncState =
  | { kind: 'idle' }
  | { kind: 'sending' }
  /** the last send failed and is tried again by itself at `at` (ms) */
  | { kind: 'retrying'; message: string; at: number }
  /** the server refused the scans (no access, signed out): tried again with the next scan */
  | { kind: 'refused'; message: string; status: number }

export type DoorSnapshot = {
  /** what the device kept has been read */
  loaded: boolean
  list: PassList | null
  /** whether signatures are checked here: a manifest's key, and a WebCrypto with Ed25519 */
  verifying: boolean
  /** every scan of this event on this device, oldest first */
  records: readonly ScanRecord[]
  admitted: ReadonlyMap<string, string>
  sync: SyncState
  /** the device's storage failed: scans are kept for as long as the page only */
  storeFailed: boolean
  /**
   * How far the server's clock is ahead of this device's (ms; negative when behind), measured when a
   * manifest was fetched: a scan's time is the device's corrected by it. 0 within CLOCK_TOLERANCE_MS.
   */
  clockOffset: number
}

/**
 * A device clock off by less than this is taken as it is: a manifest's time is stamped before it
 * travels, so a small difference is the network's, not the clock's.
 */
export const CLOCK_TOLERANCE_MS = 2 * 60_000

export type DoorOptions = {
  eventId: string
  device: string
  store: DoorStore
  send(eventId: string, scans: Scan[]): Promise<ScanReply[]>
  /** the HTTP status of a failed send, 0 when the server could not be reached */
  statusOf(error: unknown): number
  messageOf(error: unknown): string
  /** after each batch the server answered (the manifest and counts moved) */
  onSynced?(): void
  now?: () => Date
  newId?: () => string
  random?: () => number
  subtle?: SubtleCrypto
  batchSize?: number
}

export type Door = {
  snapshot(): DoorSnapshot
  subscribe(listener: () => void): () => void
  /** reads what the device kept; scans made before it is done wait for it */
  load(): Promise<void>
  /**
   * A manifest: used from now on and kept. `fetchedAt` (this device's time when it arrived, ms) for
   * one fresh from the server: its generatedAt then tells how far off this device's clock is.
   */
  takeManifest(manifest: Manifest, fetchedAt?: number): Promise<void>
  /** decides a scanned or typed code, keeps it and queues it; the record as decided here */
  scan(text: string): Promise<ScanRecord>
  /** sends what waits, now (back online, a button) */
  sync(): void
  stop(): void
}

const randomId = () =>
  globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`

export function createDoor(options: DoorOptions): Door {
  const { eventId, store } = options
  const now = options.now ?? (() => new Date())
  const newId = options.newId ?? randomId
  const batchSize = options.batchSize ?? 500
  const subtle = options.subtle ?? globalThis.crypto?.subtle

  let state: DoorSnapshot = {
    loaded: false,
    list: null,
    verifying: false,
    records: [],
    admitted: new Map(),
    sync: { kind: 'idle' },
    storeFailed: false,
    clockOffset: 0,
  }
  const listeners = new Set<() => void>()
  const set = (changes: Partial<DoorSnapshot>) => {
    state = { ...state, ...changes }
    for (const listener of listeners) listener()
  }

  let key: { publicKey: string; key: Promise<CryptoKey | null> } | null = null
  const keyOf = (publicKey: string) => {
    if (key?.publicKey !== publicKey) key = { publicKey, key: importPassKey(publicKey, subtle) }
    return key.key
  }

  const keep = async (work: () => Promise<void>) => {
    try {
      await work()
    } catch {
      if (!state.storeFailed) set({ storeFailed: true })
    }
  }

  const apply = async (manifest: Manifest) => {
    const list = passListOf(manifest)
    const verifying = (await keyOf(list.publicKey)) !== null
    set({ list, verifying })
  }

  let loading: Promise<void> | null = null
  /** the clock offset was measured on this page (what the device kept is older) */
  let measured = false
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | null = null
  let sending = false
  let again = false
  let failures = 0

  const load = () => {
    loading ??= (async () => {
      let kept: Manifest | null = null
      let scans: ScanRecord[] = []
      let offset: number | null = null
      await keep(async () => {
        ;[kept, scans, offset] = await Promise.all([
          store.manifest(eventId),
          store.scans(eventId),
          store.clockOffset(),
        ])
      })
      // An offset measured while this was read is newer: it stays.
      if (offset !== null && !measured) set({ clockOffset: offset })
      // A manifest fetched while the kept one was read is newer: it stays.
      if (kept && !state.list) await apply(kept)
      const records = [...scans, ...state.records].sort((a, b) => a.scannedAt.localeCompare(b.scannedAt))
      set({ loaded: true, records, admitted: admittedPasses(records) })
      sync()
    })()
    return loading
  }

  const send = async (): Promise<boolean> => {
    const batch = nextBatch(state.records, batchSize)
    if (batch.length === 0) return false
    set({ sync: { kind: 'sending' } })
    let done: ScanRecord[]
    try {
      done = answered(batch, await options.send(eventId, batch.map(scanOf)))
    } catch (error) {
      const status = options.statusOf(error)
      const message = options.messageOf(error)
      if (retryable(status)) {
        failures += 1
        const wait = retryDelay(failures, options.random)
        set({ sync: { kind: 'retrying', message, at: now().getTime() + wait } })
        if (!stopped) timer = setTimeout(sync, wait)
      } else {
        set({ sync: { kind: 'refused', message, status } })
      }
      return false
    }
    failures = 0
    const records = withUpdates(state.records, done)
    set({ records, admitted: admittedPasses(records), sync: { kind: 'idle' } })
    await keep(() => store.saveScans(done))
    options.onSynced?.()
    return true
  }

  function sync() {
    if (stopped || !state.loaded) return
    if (sending) {
      again = true
      return
    }
    if (timer) clearTimeout(timer)
    timer = null
    sending = true
    void (async () => {
      try {
        do {
          again = false
          let more = true
          while (more && !stopped) more = await send()
        } while (again && !stopped && state.sync.kind === 'idle')
      } finally {
        sending = false
      }
    })()
  }

  /** the scans decided so far, one after another (scan()) */
  let turns: Promise<unknown> = Promise.resolve()

  /** One scan: read, checked and decided on this device, kept, and queued to be sent. */
  async function decideOne(text: string, scannedAt: string): Promise<ScanRecord> {
    await load()
    const code = text.trim().slice(0, MAX_CODE_LENGTH + 1)
    const parsed = parsePassCode(code)
    const list = state.list
    const verifyWith = parsed && list ? await keyOf(list.publicKey) : null
    const signatureValid = parsed && verifyWith ? await verifyPassCode(parsed, verifyWith, subtle) : null
    // Read after the awaits: a scan decided meanwhile (the same pass, twice) counts.
    const local = decideScan({
      eventId,
      code: parsed,
      signatureValid,
      list: state.list,
      admittedHere: state.admitted,
      now: scannedAt,
    })
    const record: ScanRecord = {
      id: newId(),
      eventId,
      code,
      scannedAt,
      device: options.device,
      local,
      server: null,
    }
    const records = [...state.records, record]
    const admitted =
      local.result === 'admitted' && local.passId
        ? new Map(state.admitted).set(local.passId, scannedAt)
        : state.admitted
    set({ records, admitted })
    await keep(() => store.saveScans([record]))
    if (waiting(record)) {
      // a refusal is worth asking about again now that there is something new to send
      if (state.sync.kind === 'refused') set({ sync: { kind: 'idle' } })
      sync()
    }
    return record
  }

  return {
    snapshot: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    load,
    async takeManifest(manifest, fetchedAt) {
      if (manifest.eventId !== eventId) return
      if (fetchedAt !== undefined) {
        const off = Date.parse(manifest.generatedAt) - fetchedAt
        const clockOffset = Number.isFinite(off) && Math.abs(off) >= CLOCK_TOLERANCE_MS ? off : 0
        measured = true
        if (clockOffset !== state.clockOffset) set({ clockOffset })
        await keep(() => store.saveClockOffset(clockOffset))
      }
      if (state.list && manifest.position < state.list.position) return
      await apply(manifest)
      await keep(() => store.saveManifest(manifest))
    },
    scan(text) {
      // Scans are decided one after another, in the order made: checking a signature takes a
      // moment, and two scans of one pass close together must not overtake each other (the later
      // one is the double entry). Its time is the device's, corrected by the server's clock: a
      // device set to the wrong day still opens and closes the door when the server does (and the
      // server never takes a scan's time later than its own).
      const scannedAt = new Date(now().getTime() + state.clockOffset).toISOString()
      const decided = turns.then(() => decideOne(text, scannedAt))
      turns = decided.catch(() => {})
      return decided
    },
    sync() {
      if (state.sync.kind === 'refused') set({ sync: { kind: 'idle' } })
      failures = 0
      sync()
    },
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      listeners.clear()
    },
  }
}
