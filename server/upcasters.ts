// Every upcaster of an old fact shape, by fact type (see ledger/upcast.ts); the ledger applies
// them whenever it reads.
import { bookingUpcasters } from './booking/facts.ts'
import { catalogUpcasters } from './catalog/facts.ts'
import type { Upcasters } from './ledger/upcast.ts'

export const upcasters: Upcasters = { ...catalogUpcasters, ...bookingUpcasters }
