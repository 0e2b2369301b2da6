// The billing area's decisions (issue 42). A profile is the organizer's to set whenever they like,
// the booking fee the platform's admins': each is checked by its schema (contracts/billing.ts), and
// each save is a fact of its stream.
import type { BillingBody } from '../../contracts/billing.ts'
import { type LedgerPort, wait } from '../db/store.ts'
import { streams } from '../ids.ts'
import type { FactMeta } from '../ledger/ledger.ts'
import type { BillingFact } from './facts.ts'
import type { FeeTerms } from './tax.ts'

export function billingCommands(ledger: Pick<LedgerPort<unknown>, 'transaction'>) {
  return {
    setProfile: (organizerId: string, body: BillingBody, meta: FactMeta) =>
      ledger.transaction(function* (tx) {
        return yield* wait(
          tx.append<BillingFact>(
            streams.billing(organizerId),
            'any',
            [
              {
                type: 'BillingProfileSet',
                data: {
                  organizerId,
                  legalName: body.legalName,
                  gstin: body.gstin || null,
                  address: body.address,
                  state: body.state,
                  invoicePrefix: body.invoicePrefix,
                },
              },
            ],
            meta,
          ),
        )
      }),
    /** the platform's booking fee on paid orders from now on (both amounts 0: none) */
    setBookingFee: (fee: FeeTerms, meta: FactMeta) =>
      ledger.transaction(function* (tx) {
        return yield* wait(
          tx.append<BillingFact>(streams.bookingFee(), 'any', [{ type: 'BookingFeeSet', data: fee }], meta),
        )
      }),
  }
}

export type BillingCommands = ReturnType<typeof billingCommands>
