// Every inline projection, in the order they run for each fact.
import { accountsProjection } from './accounts/project.ts'
import { analyticsProjection } from './analytics/project.ts'
import { bookingProjection } from './booking/project.ts'
import { catalogProjection } from './catalog/project.ts'
import type { Projection } from './ledger/ledger.ts'
import { scheduleProjection } from './schedule/project.ts'
import { supportProjection } from './support/project.ts'

export const projections: Projection[] = [
  accountsProjection,
  catalogProjection,
  bookingProjection,
  analyticsProjection,
  scheduleProjection,
  supportProjection,
]
