// What an order's invoices and credit notes name, read before the decision that issues them (issue
// 42): the supplier (the organizer's billing profile, or the platform for the booking fee), the
// buyer and the event, and the prefixes of their series. Only the numbers are read under the
// suppliers' locks, inside the decision (booking/commands.ts).
import type { AccountQueries } from '../accounts/queries.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import type { Config } from '../config.ts'
import { type DocumentParties, PLATFORM_SUPPLIER } from './documents.ts'
import type { BillingQueries } from './queries.ts'

/** who an order's documents name and the prefix of each supplier's series; absent: not invoiced */
export type OrderSuppliers = {
  tickets?: { parties: DocumentParties; prefix: string; supplierId: string }
  fee?: { parties: DocumentParties; prefix: string; supplierId: string }
}

/** the order an invoice is for, as its row gives it */
export type InvoicedOrderRef = { organizerId: string; buyerId: string; eventId: string }

export type Invoicing = {
  /** today, YYYY-MM-DD in the platform's time zone: the day a document issued now bears */
  today(): string
  /** the suppliers of an order's documents, with who they name (nothing without a profile or fee) */
  suppliersOf(order: InvoicedOrderRef): Promise<OrderSuppliers>
  /** the locks the numbers of an organizer's documents are drawn under */
  locksOf(organizerId: string): string[]
}

export function invoicing(parts: {
  config: Pick<Config, 'billing' | 'timeZone'>
  billing: Pick<BillingQueries, 'profile'>
  accounts: Pick<AccountQueries, 'byId'>
  catalog: Pick<CatalogQueries, 'byId'>
  /** the lock names of invoice series (db/store.ts's decisionLocks.invoices) */
  lockOf: (supplierId: string) => string
}): Invoicing {
  const { config, billing, accounts, catalog, lockOf } = parts
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: config.timeZone })
  const platform = config.billing.platform
  return {
    today: () => day.format(new Date()),
    locksOf: (organizerId) =>
      // the platform's series only while a fee is charged; its table's key refuses a number twice
      config.billing.fee ? [lockOf(organizerId), lockOf(PLATFORM_SUPPLIER)] : [lockOf(organizerId)],
    async suppliersOf(order) {
      const profile = await billing.profile(order.organizerId)
      if (!profile && !config.billing.fee) return {}
      const [buyer, event] = await Promise.all([accounts.byId(order.buyerId), catalog.byId(order.eventId)])
      if (!buyer || !event) return {}
      const named = {
        buyer: { name: buyer.username, email: buyer.email },
        event: { _id: event.id, title: event.title, date: event.date },
      }
      const suppliers: OrderSuppliers = {}
      if (profile) {
        suppliers.tickets = {
          supplierId: order.organizerId,
          prefix: profile.invoicePrefix,
          parties: {
            ...named,
            supplier: {
              legalName: profile.legalName,
              gstin: profile.gstin,
              address: profile.address,
              state: profile.state,
            },
          },
        }
      }
      suppliers.fee = {
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
      }
      return suppliers
    },
  }
}
