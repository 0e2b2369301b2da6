// Prepares a data folder before the server starts: buyers with sign-in tokens, an organizer, an
// admin and approved events, written through the ledger and its projections.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { accountQueries } from '../../../server/accounts/queries.ts'
import { loadConfig, withJwtSecret } from '../../../server/config.ts'
import { openDatabase } from '../../../server/db/connection.ts'
import { createTokens } from '../../../server/http/access.ts'
import { newId } from '../../../server/ids.ts'
import { appLedger } from '../../../server/projections.ts'
import { accountFacts, type EventSeed, eventFacts } from './fixtures.ts'

export type Seeded = {
  dataDir: string
  tokensFile: string
  tokens: string[]
  adminToken: string
  organizerToken: string
  events: EventSeed[]
}

export function seed(options: {
  buyers: number
  events: number
  seats: number
  synchronous?: 'FULL' | 'NORMAL'
}): Seeded {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'))
  const config = withJwtSecret(loadConfig({ DATA_DIR: dataDir }))
  const connection = openDatabase(config.databaseFile, 'NORMAL')
  const ledger = appLedger(connection)
  const hash = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2htYXJrc2FsdA$0n4SvGtf5r7k9UbSCzjnQ+z4YEfxbRg3O2c7fY5XiDc'
  const people = accountFacts(options.buyers + 2, hash)
  const [admin, organizer] = people.slice(-2)
  ;(admin?.facts[0]?.data as { role: string }).role = 'admin'
  ;(organizer?.facts[0]?.data as { role: string }).role = 'organizers'
  ledger.transaction(() => {
    for (const person of people) ledger.append(person.stream, 0, person.facts)
  })
  const id = (s: (typeof people)[number] | undefined) =>
    (s?.facts[0]?.data as { accountId: string } | undefined)?.accountId ?? ''
  const events: EventSeed[] = []
  ledger.transaction(() => {
    for (let i = 0; i < options.events; i++) {
      const { seed, stream } = eventFacts(id(organizer), id(admin), i, options.seats)
      ledger.append(stream.stream, 0, stream.facts)
      events.push(seed)
    }
  })
  const tokens = createTokens(config)
  const accounts = accountQueries(connection.db)
  const tokenOf = (accountId: string) =>
    tokens.sign(accounts.byId(accountId) as NonNullable<ReturnType<typeof accounts.byId>>)
  const buyerTokens = people.slice(0, options.buyers).map((p) => tokenOf(id(p)))
  const adminToken = tokenOf(id(admin))
  const organizerToken = tokenOf(id(organizer))
  connection.close()
  const tokensFile = join(dataDir, 'bench-tokens.json')
  writeFileSync(tokensFile, JSON.stringify(buyerTokens))
  return {
    dataDir,
    tokensFile,
    tokens: buyerTokens,
    adminToken,
    organizerToken,
    events,
  }
}

export const unusedId = () => newId()
