// Upcasting: facts keep the shape they were written in, for ever; code reads only the current
// shape. Each fact type whose shape changed has one upcaster, applied by the ledger on every read
// (the streams deciders fold, the pages consumers tail, a rebuild's replay), so an old ledger
// replays to the same figures without one stored byte changing.

/**
 * Takes the data of a fact of one type, in any shape that type was ever written in, to the
 * current shape; data already current comes back as it is. Pure and cheap: it runs on every read.
 */
export type Upcaster = (data: Record<string, unknown>) => unknown

/** One upcaster per fact type that has older shapes (types without one are read as stored). */
export type Upcasters = Readonly<Record<string, Upcaster>>

export const upcast = (upcasters: Upcasters, type: string, data: unknown): unknown => {
  const upcaster = upcasters[type]
  return upcaster && data !== null && typeof data === 'object'
    ? upcaster(data as Record<string, unknown>)
    : data
}
