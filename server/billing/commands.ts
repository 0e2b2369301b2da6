// The billing area's decisions (issue 42). A profile is the organizer's to set whenever they like:
// it is checked by its schema (contracts/billing.ts), and each save is a fact of their stream.
import type { BillingBody } from '../../contracts/billing.ts'
import { type LedgerPort, wait } from '../db/store.ts'
import { streams } from '../ids.ts'
import type { FactMeta } from '../ledger/ledger.ts'
import type { BillingFact } from './facts.ts'

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
  }
}

export type BillingCommands = ReturnType<typeof billingCommands>
