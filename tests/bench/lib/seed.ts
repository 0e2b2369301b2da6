// Prepares a data folder before the server starts: buyers with sign-in tokens, an organizer, an
// admin and approved events (taxed, with the organizer's billing profile, when `invoiced`), written
// through the ledger and its projections. seed() writes the SQLite store under a fresh data folder;
// seedPostgres() writes the same facts, built the same way, through the PostgreSQL ledger (PgLedger,
// in transactions) of a database made beforehand.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Account, accountQueries } from '../../../server/accounts/queries.ts'
import { loadConfig, withJwtSecret } from '../../../server/config.ts'
import { openDatabase } from '../../../server/db/connection.ts'
import { openPostgres } from '../../../server/db/pg-connection.ts'
import { pgSql, poolQueryable, sqliteSql } from '../../../server/db/sql.ts'
import { promised } from '../../../server/db/store.ts'
import { createTokens } from '../../../server/http/access.ts'
import { newId } from '../../../server/ids.ts'
import { pgAppLedger } from '../../../server/pg-projections.ts'
import { appLedger } from '../../../server/projections.ts'
import {
  accountFacts,
  type EventSeed,
  type EventTax,
  eventFacts,
  type SeatedLayout,
  type Stream,
} from './fixtures.ts'

export type Seeded = {
  dataDir: string
  tokensFile: string
  tokens: string[]
  /** the buyers' account ids, in the tokens' order */
  buyerIds: string[]
  adminToken: string
  organizerToken: string
  events: EventSeed[]
}

type SeedOptions = {
  buyers: number
  events: number
  seats: number
  synchronous?: 'FULL' | 'NORMAL'
  /** when the events start (a wall clock in TIMEZONE); far ahead unless told */
  eventStart?: { date: string; time: string }
  /** VIP sold as reserved seats (issue 40), the best ones for each hold's quantity; a layout: rows
   * of that many seats, that far apart */
  seatedVip?: boolean | SeatedLayout
  /** GST and invoices (issue 42): the organizer has a billing profile with a GSTIN (state 27) and
   * every event is held in state 27 with taxed types, so every paid order gets an invoice */
  invoiced?: boolean
}

/** the organizer's billing profile of an invoiced seed (a well-formed GSTIN of state 27) */
export const seededBillingProfile = {
  legalName: 'Seeded Productions LLP',
  gstin: '27AAPFU0939F1ZV',
  address: '12 FC Road, Pune 411004',
  state: '27',
  invoicePrefix: 'SEED',
}

/** the GST of an invoiced seed's event: held in state 27, prices with GST on even events and
 * without it on odd ones, General Admission at 18% and VIP at 28% */
export const seededEventTax = (index: number): EventTax => ({
  state: '27',
  pricesIncludeTax: index % 2 === 0,
  rates: { general: 18, vip: 28 },
})

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2htYXJrc2FsdA$0n4SvGtf5r7k9UbSCzjnQ+z4YEfxbRg3O2c7fY5XiDc'

/** The facts of a seed, the same for both stores: the people (buyers, then the admin and the
 * organizer) and the events' streams. */
function seedFacts(options: SeedOptions) {
  const people = accountFacts(options.buyers + 2, HASH)
  const [admin, organizer] = people.slice(-2)
  ;(admin?.facts[0]?.data as { role: string }).role = 'admin'
  ;(organizer?.facts[0]?.data as { role: string }).role = 'organizers'
  const id = (s: Stream | undefined) =>
    (s?.facts[0]?.data as { accountId: string } | undefined)?.accountId ?? ''
  const events = Array.from({ length: options.events }, (_, i) =>
    eventFacts(
      id(organizer),
      id(admin),
      i,
      options.seats,
      options.eventStart,
      options.seatedVip,
      options.invoiced ? seededEventTax(i) : undefined,
    ),
  )
  const billing: Stream[] = options.invoiced
    ? [
        {
          stream: `billing-${id(organizer)}`,
          facts: [
            { type: 'BillingProfileSet', data: { organizerId: id(organizer), ...seededBillingProfile } },
          ],
        },
      ]
    : []
  return {
    people,
    billing,
    events,
    buyerIds: people.slice(0, options.buyers).map(id),
    adminId: id(admin),
    organizerId: id(organizer),
  }
}

function seeded(
  dataDir: string,
  facts: ReturnType<typeof seedFacts>,
  tokenOf: (accountId: string) => string,
): Seeded {
  const buyerTokens = facts.buyerIds.map(tokenOf)
  const tokensFile = join(dataDir, 'bench-tokens.json')
  writeFileSync(tokensFile, JSON.stringify(buyerTokens))
  return {
    dataDir,
    tokensFile,
    tokens: buyerTokens,
    buyerIds: facts.buyerIds,
    adminToken: tokenOf(facts.adminId),
    organizerToken: tokenOf(facts.organizerId),
    events: facts.events.map((e) => e.seed),
  }
}

export function seed(options: SeedOptions): Seeded {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'))
  const config = withJwtSecret(loadConfig({ DATA_DIR: dataDir }))
  const connection = openDatabase(config.databaseFile, 'NORMAL')
  const ledger = appLedger(connection)
  const facts = seedFacts(options)
  ledger.transaction(() => {
    for (const person of facts.people) ledger.append(person.stream, 0, person.facts)
    for (const profile of facts.billing) ledger.append(profile.stream, 0, profile.facts)
  })
  ledger.transaction(() => {
    for (const { stream } of facts.events) ledger.append(stream.stream, 0, stream.facts)
  })
  const tokens = createTokens(config)
  // SQLite answers at once
  const accounts = accountQueries(sqliteSql(connection.sqlite))
  const tokenOf = (accountId: string) => tokens.sign(accounts.byId(accountId) as Account)
  const result = seeded(dataDir, facts, tokenOf)
  connection.close()
  return result
}

/**
 * The same seed on PostgreSQL (DATABASE_URL): the facts appended through PgLedger with every
 * projection, the people in one transaction and the events in another (as seed() does on SQLite);
 * the tokens signed with `jwtSecret`, which every app process on that database must be given
 * (JWT_SECRET). The data folder it makes holds only the tokens file (and whatever the servers keep
 * on disk).
 */
export async function seedPostgres(
  options: SeedOptions & { databaseUrl: string; jwtSecret: string },
): Promise<Seeded> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'))
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: options.databaseUrl,
    JWT_SECRET: options.jwtSecret,
  })
  const connection = await openPostgres(options.databaseUrl, 2)
  try {
    const ledger = pgAppLedger(connection.pool)
    const facts = seedFacts(options)
    await ledger.transaction(async (tx) => {
      for (const person of facts.people) await tx.append(person.stream, 0, person.facts)
      for (const profile of facts.billing) await tx.append(profile.stream, 0, profile.facts)
    })
    await ledger.transaction(async (tx) => {
      for (const { stream } of facts.events) await tx.append(stream.stream, 0, stream.facts)
    })
    const tokens = createTokens(config)
    const accounts = promised(accountQueries(pgSql(poolQueryable(connection.pool))))
    const byId = new Map<string, Account>()
    const ids = [...facts.buyerIds, facts.adminId, facts.organizerId]
    for (let i = 0; i < ids.length; i += 1000) {
      for (const account of await accounts.byIds(ids.slice(i, i + 1000))) byId.set(account.id, account)
    }
    const tokenOf = (accountId: string) => {
      const account = byId.get(accountId)
      if (!account) throw new Error(`seeded account ${accountId} is not in the accounts read model`)
      return tokens.sign(account)
    }
    return seeded(dataDir, facts, tokenOf)
  } finally {
    await connection.close()
  }
}

export const unusedId = () => newId()
