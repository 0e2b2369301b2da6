// The scans a door made, kept on the device (IndexedDB) until the server has answered each, and
// after: what is still to send and in which batches, the server's answers put in place of the
// door's own, the passes this device knows admitted, and the double entries the sync revealed.
// Pure: the store and the network are the door's (door.ts).

import { MAX_CODE_LENGTH } from '../../../../contracts/pass-code.ts'
import type { Scan, ScanReply } from '../../api/checkin.ts'
import type { Decision, LocalResult } from './decide.ts'

export type ScanRecord = {
  /** this device's own key for the scan */
  id: string
  eventId: string
  /** the code as sent: the server knows a scan sent again by (device, code, scannedAt) */
  code: string
  scannedAt: string
  device: string
  /** what the door decided at once */
  local: Decision
  /** the server's decision, once the scan was synced */
  server: ScanReply | null
}

/** the server refuses whole batches with a code it cannot take: those are decided here alone */
export const sendable = (record: ScanRecord): boolean =>
  record.code.length > 0 && record.code.length <= MAX_CODE_LENGTH

export const waiting = (record: ScanRecord): boolean => record.server === null && sendable(record)

/** the word that stands: the server's once it answered */
export const resultOf = (record: ScanRecord): LocalResult => record.server?.result ?? record.local.result

/**
 * A scan of a pass admitted before: a double entry, as the organizer's page lists it (the server
 * records it). The server's word stands once it answered; until then, this device's.
 */
export const isDoubleEntry = (record: ScanRecord): boolean => resultOf(record) === 'already-admitted'

/** a double entry this device let in (offline, the pass admitted first at another door) */
export const wasLetIn = (record: ScanRecord): boolean =>
  record.local.result === 'admitted' && record.server?.result === 'already-admitted'

/** a pass this device let in that the server refused for another reason (cancelled meanwhile, say) */
export const isLateRefusal = (record: ScanRecord): boolean =>
  record.local.result === 'admitted' &&
  record.server !== null &&
  record.server.result !== 'admitted' &&
  record.server.result !== 'already-admitted'

/** the next scans to send: the oldest waiting ones first, at most `limit` */
export function nextBatch(records: readonly ScanRecord[], limit: number): ScanRecord[] {
  return records
    .filter(waiting)
    .sort((a, b) => (a.scannedAt < b.scannedAt ? -1 : a.scannedAt > b.scannedAt ? 1 : 0))
    .slice(0, limit)
}

export const scanOf = (record: ScanRecord): Scan => ({
  code: record.code,
  scannedAt: record.scannedAt,
  device: record.device,
})

/**
 * The sent records with the server's answers (in the order sent). An answer that does not match
 * its scan's code means the batch was not answered as sent: nothing is taken from it.
 */
export function answered(sent: readonly ScanRecord[], replies: readonly ScanReply[]): ScanRecord[] {
  if (replies.length !== sent.length)
    throw new Error(`The server answered ${replies.length} of ${sent.length} scans.`)
  return sent.map((record, index) => {
    const reply = replies[index]
    if (!reply || reply.code !== record.code) throw new Error('The server answered other scans than sent.')
    return { ...record, server: reply }
  })
}

/** the records with these replaced (by id), in their order */
export function withUpdates(records: readonly ScanRecord[], updates: readonly ScanRecord[]): ScanRecord[] {
  const byId = new Map(updates.map((record) => [record.id, record]))
  return records.map((record) => byId.get(record.id) ?? record)
}

/**
 * The passes this device knows admitted, with the earliest admission it knows of: its own
 * admissions, and the passes the server answered were admitted already. A pass the server voided
 * or refused afterwards is not among them.
 */
export function admittedPasses(records: readonly ScanRecord[]): Map<string, string> {
  const admitted = new Map<string, string>()
  for (const record of records) {
    const passId = record.local.passId
    const result = resultOf(record)
    if (!passId || (result !== 'admitted' && result !== 'already-admitted')) continue
    const at = record.server?.admittedAt ?? record.local.admittedAt ?? record.scannedAt
    const known = admitted.get(passId)
    if (known === undefined || at < known) admitted.set(passId, at)
  }
  return admitted
}

/** how long to wait before the n-th retry (n from 1): doubling from 1 s to 1 min, spread at random */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(60_000, 1000 * 2 ** Math.max(0, attempt - 1))
  return Math.round(ceiling * (0.5 + random() / 2))
}

/** whether a failed sync is worth trying again by itself (no network, a busy or failing server) */
export const retryable = (status: number): boolean =>
  status === 0 || status === 408 || status === 429 || status >= 500
