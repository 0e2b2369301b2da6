// Who an order's invoices and credit notes name (issue 42): the parties its hold kept when it was
// priced (the organizer's billing profile, the buyer, the event), and the platform for the booking
// fee. So a payment's decision reads nothing for its documents but their numbers, under the
// suppliers' locks (booking/commands.ts).
import type { Config } from '../config.ts'
import { type DocumentParties, PLATFORM_SUPPLIER } from './documents.ts'

/** what a hold keeps for its documents: the supplier as its profile was (null: none), buyer, event */
export type HeldParties = {
  supplier: (DocumentParties['supplier'] & { invoicePrefix: string }) | null
  buyer: DocumentParties['buyer']
  event: DocumentParties['event']
}

/** who an order's documents name and the prefix of each supplier's series; absent: not invoiced */
export type OrderSuppliers = {
  tickets?: { parties: DocumentParties; prefix: string; supplierId: string }
  fee?: { parties: DocumentParties; prefix: string; supplierId: string }
}

/** an order as its row gives it: whose tickets, and the booking fee it charged (paise) */
export type ChargedOrder = { organizerId: string; feePaise: number }

export type Invoicing = {
  /** today, YYYY-MM-DD in the platform's time zone: the day a document issued now bears */
  today(): string
  /** the suppliers of an order's documents, from what its hold kept */
  suppliersOf(order: { organizerId: string; invoicing?: HeldParties }): OrderSuppliers
  /** the locks the numbers of an order's documents are drawn under */
  locksOf(order: ChargedOrder): string[]
  /** whose series an order may draw numbers from: its organizer's, the platform's for its fee */
  suppliersFor(order: ChargedOrder): string[]
}

export function invoicing(parts: {
  config: Pick<Config, 'billing' | 'timeZone'>
  /** the lock names of invoice series (db/store.ts's decisionLocks.invoices) */
  lockOf: (supplierId: string) => string
}): Invoicing {
  const { config, lockOf } = parts
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: config.timeZone })
  const platform = config.billing.platform
  // the platform's series only for an order that charged a fee (its lock taken only then); the
  // documents' table's key refuses a number twice
  const suppliersFor = (order: ChargedOrder) =>
    order.feePaise > 0 ? [order.organizerId, PLATFORM_SUPPLIER] : [order.organizerId]
  return {
    today: () => day.format(new Date()),
    locksOf: (order) => suppliersFor(order).map(lockOf),
    suppliersFor,
    suppliersOf(order) {
      const held = order.invoicing
      if (!held) return {}
      const named = { buyer: held.buyer, event: held.event }
      const suppliers: OrderSuppliers = {
        fee: {
          supplierId: PLATFORM_SUPPLIER,
          prefix: platform.invoicePrefix,
          parties: {
            ...named,
            supplier: {
              legalName: platform.legalName,
              gstin: platform.gstin,
              address: platform.address,
              state: platform.state,
            },
          },
        },
      }
      if (held.supplier) {
        const { invoicePrefix, ...supplier } = held.supplier
        suppliers.tickets = {
          supplierId: order.organizerId,
          prefix: invoicePrefix,
          parties: { ...named, supplier },
        }
      }
      return suppliers
    },
  }
}
