// A whole ledger from one store to the other (npm run ledger:copy), every fact in position order
// with its position, version, time and meta, each projected on arrival so that the target's read
// models are built as the facts come. The target must hold no fact yet: a copy never merges two
// ledgers. Facts go over in pages, one transaction each.
import type { Ledger, StoredFact } from './ledger.ts'
import type { PgLedger } from './pg-ledger.ts'

/** Either store's ledger, as a copy reads and writes it. */
export type CopyEnd = { store: 'sqlite'; ledger: Ledger } | { store: 'postgres'; ledger: PgLedger }

const readPage = (end: CopyEnd, after: number, size: number): Promise<StoredFact[]> | StoredFact[] =>
  end.store === 'sqlite' ? end.ledger.readFrom(after, size) : end.ledger.readFrom(after, size)

const headOf = (end: CopyEnd): Promise<number> | number =>
  end.store === 'sqlite' ? end.ledger.head() : end.ledger.head()

export class TargetNotEmpty extends Error {
  constructor(readonly head: number) {
    super(`The target already holds facts (up to position ${head}): a copy goes into an empty ledger only.`)
    this.name = 'TargetNotEmpty'
  }
}

/** Copies every fact of `from` into the empty `to`; answers how many. */
export async function copyLedger(from: CopyEnd, to: CopyEnd, pageSize = 5000): Promise<number> {
  const head = await headOf(to)
  if (head > 0) throw new TargetNotEmpty(head)
  let copied = 0
  for (let after = 0; ; ) {
    const page = await readPage(from, after, pageSize)
    if (page.length === 0) return copied
    // (SQLite's copyIn answers at once, PostgreSQL's later)
    await to.ledger.copyIn(page)
    copied += page.length
    after = (page.at(-1) as StoredFact).position
  }
}
