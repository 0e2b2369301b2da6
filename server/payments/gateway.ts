// Picks the adapter from the config; the local gateway also exists whenever it is the provider,
// keeping its records in PostgreSQL when given the app's pool (DATABASE_URL), else in a SQLite file.
import { join } from 'node:path'
import type pg from 'pg'
import type { Config } from '../config.ts'
import { localAdapter } from './local.ts'
import { LocalGateway } from './local-gateway.ts'
import type { PaymentGateway } from './port.ts'
import { razorpayAdapter } from './razorpay.ts'

export function createGateway(
  config: Config,
  /** the app's PostgreSQL pool, migrations applied (openPostgres): the local gateway's store */
  pool?: pg.Pool | null,
): { gateway: PaymentGateway; local: LocalGateway | null } {
  const { provider, keyId, keySecret, webhookSecret, apiUrl } = config.payments
  if (provider === 'razorpay') {
    return { gateway: razorpayAdapter({ keyId, keySecret, webhookSecret, apiUrl }), local: null }
  }
  const local = new LocalGateway(
    pool ?? join(config.dataDir, 'local-gateway.sqlite'),
    keyId,
    keySecret,
    webhookSecret,
  )
  return { gateway: localAdapter(local, { keySecret, webhookSecret }), local }
}
