// A projection written once for both stores (db/read-model.ts's tables, db/sql.ts's statements):
// each handler is given the fact and the statements' executor, and answers nothing, a promise, or
// generator steps (store.ts: `yield* wait(x.get(…))`) when it reads before it writes. onSqlite()
// runs it inside the SQLite ledger's synchronous transaction, onPostgres() awaits it inside the
// PostgreSQL append's transaction.
import type { Db } from '../db/connection.ts'
import type { AnyReadModel } from '../db/read-model.ts'
import { pgSql, type Sql, sqliteSql } from '../db/sql.ts'
import { type Awaitable, runLater, runNow, type Step } from '../db/store.ts'
import { type Fact, type Projection, projection, type Replaying, type StoredFact } from './ledger.ts'
import type { PgProjection, PgTx } from './pg-ledger.ts'

type Answer = Step<void> | Awaitable<void>

/** one handler per fact type of a module's union, given the executor of its statements */
export type ReadHandlers<F extends Fact, R> = {
  [T in F['type']]: (fact: StoredFact<Extract<F, { type: T }>>, x: Sql, reads: R) => Answer
}

type AnyHandlers<R> = Partial<Record<string, (fact: StoredFact, x: Sql, reads: R) => Answer>>

export type ReadProjection<R = undefined> = {
  name: string
  tables: AnyReadModel[]
  handlers: AnyHandlers<R>
  after?: readonly string[]
  replay?: (x: Sql, rowsHeld: number, replaying: Replaying) => { handlers: AnyHandlers<R>; flush(): void }
}

export function readProjection<F extends Fact, R = undefined>(spec: {
  name: string
  tables: AnyReadModel[]
  handlers: ReadHandlers<F, R>
  after?: readonly string[]
  /**
   * SQLite's rebuild only (ledger.ts's Projection.replay): handlers for a replay, when they differ,
   * and what writes what they kept back. Its tables start empty and nobody reads them until
   * flush(), so it may fold in memory and write each row once; a rebuild on PostgreSQL replays
   * through the handlers. `replaying` is what the replays share (ledger.ts's Replaying).
   */
  replay?: (x: Sql, rowsHeld: number, replaying: Replaying) => { handlers: ReadHandlers<F, R>; flush(): void }
}): ReadProjection<R> {
  return spec as unknown as ReadProjection<R>
}

const isSteps = (answer: unknown): answer is Step<void> =>
  typeof answer === 'object' && answer !== null && typeof (answer as Step<void>).next === 'function'

/**
 * The projection on SQLite: its handlers run at once in the append's transaction. `readsOf` gives
 * them what they read of other areas; in a rebuild's replay it is given what the replays share
 * (ledger.ts's Replaying: booking's orders, held in memory until the replay ends).
 */
export function onSqlite<R>(
  p: ReadProjection<R>,
  readsOf?: (x: Sql, db: Db, replaying?: Replaying) => R,
): Projection {
  return projection<Fact>({
    name: p.name,
    tables: p.tables.map((t) => t.sqlite),
    ...(p.after ? { after: p.after } : {}),
    handlers: (db, replaying) => {
      const x = sqliteSql(db.$client)
      return atOnce(p.handlers, x, readsOf ? readsOf(x, db, replaying) : (undefined as R)) as never
    },
    ...(p.replay
      ? {
          replay: (db: Db, rowsHeld: number, replaying: Replaying) => {
            const x = sqliteSql(db.$client)
            const replay = (p.replay as NonNullable<typeof p.replay>)(x, rowsHeld, replaying)
            const reads = readsOf ? readsOf(x, db, replaying) : (undefined as R)
            return { handlers: atOnce(replay.handlers, x, reads) as never, flush: replay.flush }
          },
        }
      : {}),
  })

  /** each handler run at once: its steps answered now, a promise a mistake */
  function atOnce(given: AnyHandlers<R>, x: Sql, reads: R) {
    const handlers: Record<string, (fact: StoredFact) => void> = {}
    for (const [type, handler] of Object.entries(given)) {
      if (!handler) continue
      handlers[type] = (fact) => {
        const answer = handler(fact, x, reads)
        if (isSteps(answer)) runNow(answer)
        else if (answer instanceof Promise) throw new Error(`${p.name}: a handler waited on SQLite`)
      }
    }
    return handlers
  }
}

/** The projection on PostgreSQL: its handlers awaited in the append's transaction. */
export function onPostgres<R>(p: ReadProjection<R>, readsOf?: (x: Sql, tx: PgTx) => R): PgProjection {
  const handlers: PgProjection['handlers'] = {}
  for (const [type, handler] of Object.entries(p.handlers)) {
    if (!handler) continue
    handlers[type] = async (fact, tx) => {
      const x = pgSql(tx)
      const answer = handler(fact, x, readsOf ? readsOf(x, tx) : (undefined as R))
      if (isSteps(answer)) await runLater(answer)
      else await answer
    }
  }
  return { name: p.name, handlers, ...(p.after ? { after: p.after } : {}) }
}
