// Scans at the door decided against the ledger (door-design.md, Deciding a scan): the code is read
// and its signature checked first (no database: a forged, altered or garbled code is `invalid`, a
// code of another event `wrong-event`); then each scan is decided on its ticket's stream in a
// transaction of its own, all of a request's scans sharing one commit (group commit) and taken in
// the order they were sent, so of two devices that admitted one pass offline the first scan to
// reach the ledger wins and the second is told it was a double entry. A scan made before the door
// opened (CHECKIN_OPENS_HOURS before the start, by the door's clock but never later than the
// server's) is too early and admits no one. A scan is known by its scanId
// (sha256 of device, code and scannedAt): sent again, it gets the same answer and adds no fact.

import { createHash } from 'node:crypto'
import type { ScanInput, ScanReply } from '../../contracts/checkin.ts'
import type { SeatLabel } from '../../contracts/seating.ts'
import type { AccountQueries } from '../accounts/queries.ts'
import {
  type DoorClock,
  orderDecider,
  type PassScan,
  type ScanVerdict,
  scanVerdict,
} from '../booking/decide.ts'
import type { LedgerPort } from '../db/store.ts'
import { streams } from '../ids.ts'
import { decideIn } from '../ledger/decider.ts'
import type { FactMeta } from '../ledger/ledger.ts'
import { holdersOf } from './holders.ts'
import type { DoorOpening } from './opening.ts'
import type { PassSigner } from './pass-codes.ts'

/** sha256 hex of `${device}\n${code}\n${scannedAt}`: the same scan sent again has the same id */
export const scanIdOf = (scan: ScanInput) =>
  createHash('sha256').update(`${scan.device}\n${scan.code}\n${scan.scannedAt}`).digest('hex')

/** what one scan's decision on its ticket's stream found */
type Decided = {
  verdict: ScanVerdict
  ticketType: string | null
  ownerId: string | null
  /** a seated ticket's seat for the admission scanned */
  seat: SeatLabel | undefined
}

export function checkinScans(parts: {
  ledger: Pick<LedgerPort<unknown>, 'transactionInBatch'>
  signer: PassSigner
  accounts: Pick<AccountQueries, 'byIds'>
  opening: DoorOpening
  now?: () => Date
}) {
  const { ledger, signer, accounts, opening } = parts
  const now = parts.now ?? (() => new Date())

  /** One scan's decision, in a transaction of its own that shares the batch's commit. */
  const decide = (scan: PassScan, ticketId: string, meta: FactMeta, door: DoorClock): Promise<Decided> =>
    ledger.transactionInBatch(function* (tx) {
      const handled = yield* decideIn(tx, orderDecider, {
        stream: streams.order(ticketId),
        command: { type: 'Admit', scan, door },
        meta,
      })
      const { state } = handled
      return {
        // asked of the stream as it is now: this scan's own fact (if any) is its answer
        verdict: scanVerdict(state, scan, door),
        ticketType: state.order && state.status !== 'none' ? state.order.ticketType : null,
        ownerId: state.ownerId,
        seat: state.order?.seats?.[scan.admission - 1],
      }
    })

  return {
    /** The answers to a request's scans, in their order. */
    async scan(
      event: { id: string; date: string; time: string },
      scans: ScanInput[],
      meta: FactMeta,
    ): Promise<ScanReply[]> {
      const eventId = event.id
      const door: DoorClock = { now: now().toISOString(), opensAt: opening(event) }
      // Every decision is asked for in this one turn of the event loop, so they all join one batch,
      // in the order sent.
      const pending = scans.map((scan): Promise<Decided | 'invalid' | 'wrong-event'> => {
        const claim = signer.verify(scan.code)
        if (!claim) return Promise.resolve('invalid')
        if (claim.eventId !== eventId) return Promise.resolve('wrong-event')
        const passScan: PassScan = {
          scanId: scanIdOf(scan),
          eventId,
          admission: claim.admission,
          version: claim.version,
          device: scan.device,
          scannedAt: new Date(scan.scannedAt).toISOString(),
        }
        return decide(passScan, claim.ticketId, meta, door)
      })
      const decided = await Promise.all(pending)
      const holders = await holdersOf(
        accounts,
        decided.flatMap((d) => (typeof d === 'object' && d.ownerId ? [d.ownerId] : [])),
      )
      return decided.map((d, i): ScanReply => {
        const { code, device } = scans[i] as ScanInput
        if (typeof d === 'string') {
          return { code, result: d, admittedAt: null, device, ticketType: null, holder: null }
        }
        const real = d.verdict.result !== 'invalid'
        return {
          code,
          result: d.verdict.result,
          admittedAt: d.verdict.admittedAt,
          device,
          ticketType: real ? d.ticketType : null,
          holder: real && d.ownerId ? (holders.get(d.ownerId) ?? null) : null,
          ...(real && d.seat ? { seat: d.seat } : {}),
        }
      })
    },
  }
}

export type CheckinScans = ReturnType<typeof checkinScans>
