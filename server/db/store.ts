// What both stores offer an area, typed once: the async face of an area's queries, which the
// SQLite queries (synchronous) and the PostgreSQL ones (async) both satisfy when awaited.

/** Every method of Q, answering a promise of what it answers. */
export type AsyncQueries<Q> = {
  [K in keyof Q]: Q[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : Q[K]
}
