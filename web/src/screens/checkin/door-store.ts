// What a door keeps on the device (IndexedDB through idb): each event's latest manifest and every
// scan with its decisions, so the door opens, decides and queues with no network, and nothing
// scanned is lost to a closed tab before it was synced.
import { type DBSchema, type IDBPDatabase, openDB } from 'idb'
import type { Manifest } from '../../api/checkin.ts'
import type { ScanRecord } from './scan-log.ts'

/** the door's storage, as door.ts uses it (an in-memory one stands in for it in tests) */
export type DoorStore = {
  manifest(eventId: string): Promise<Manifest | null>
  saveManifest(manifest: Manifest): Promise<void>
  scans(eventId: string): Promise<ScanRecord[]>
  saveScans(records: readonly ScanRecord[]): Promise<void>
  /** how far the server's clock is ahead of this device's (ms), as last measured; 0 if never */
  clockOffset(): Promise<number>
  saveClockOffset(offset: number): Promise<void>
}

/** the device's clock offset: one per device (every event's door runs on the same clock) */
const OFFSET_KEY = 'checkin-clock-offset'

interface DoorDb extends DBSchema {
  manifests: { key: string; value: Manifest }
  scans: { key: string; value: ScanRecord; indexes: { 'by-event': string } }
}

const DB_NAME = 'checkin'

export function indexedDbStore(): DoorStore {
  let opened: Promise<IDBPDatabase<DoorDb>> | null = null
  const db = () => {
    opened ??= openDB<DoorDb>(DB_NAME, 1, {
      upgrade(database) {
        database.createObjectStore('manifests', { keyPath: 'eventId' })
        database.createObjectStore('scans', { keyPath: 'id' }).createIndex('by-event', 'eventId')
      },
    })
    return opened
  }
  return {
    manifest: async (eventId) => (await (await db()).get('manifests', eventId)) ?? null,
    saveManifest: async (manifest) => {
      await (await db()).put('manifests', manifest)
    },
    scans: async (eventId) => (await db()).getAllFromIndex('scans', 'by-event', eventId),
    saveScans: async (records) => {
      const transaction = (await db()).transaction('scans', 'readwrite')
      await Promise.all([...records.map((record) => transaction.store.put(record)), transaction.done])
    },
    clockOffset: async () => {
      const kept = Number(localStorage.getItem(OFFSET_KEY))
      return Number.isFinite(kept) ? kept : 0
    },
    saveClockOffset: async (offset) => {
      localStorage.setItem(OFFSET_KEY, String(offset))
    },
  }
}

/** for tests and for a browser without IndexedDB: kept for as long as the page */
export function memoryStore(): DoorStore {
  const manifests = new Map<string, Manifest>()
  const scans = new Map<string, ScanRecord>()
  let offset = 0
  return {
    manifest: async (eventId) => manifests.get(eventId) ?? null,
    saveManifest: async (manifest) => {
      manifests.set(manifest.eventId, manifest)
    },
    scans: async (eventId) => [...scans.values()].filter((record) => record.eventId === eventId),
    saveScans: async (records) => {
      for (const record of records) scans.set(record.id, record)
    },
    clockOffset: async () => offset,
    saveClockOffset: async (kept) => {
      offset = kept
    },
  }
}
