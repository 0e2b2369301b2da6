// Constants of the code written into the SQL (server/db/constant.ts): never bound, so SQLite plans a
// statement on orders' partial indexes once, not on every run; and nothing but a plain word passes.
import { and, eq } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { describe, expect, it } from 'vitest'
import { equalsConstant, inConstants } from '../../server/db/constant.ts'
import { ordersTable as orders } from '../../server/db/sqlite-read-models.ts'

const db = drizzle.mock()

describe('constants in the SQL', () => {
  it('writes the value into the statement instead of binding it', () => {
    const bound = db
      .select()
      .from(orders)
      .where(and(eq(orders.buyerId, 'b1'), eq(orders.status, 'held')))
      .toSQL()
    const written = db
      .select()
      .from(orders)
      .where(and(eq(orders.buyerId, 'b1'), equalsConstant(orders.status, 'held')))
      .toSQL()
    expect(bound.params).toEqual(['b1', 'held'])
    expect(written.params).toEqual(['b1'])
    expect(written.sql).toContain(`"orders"."status" = 'held'`)
    const listed = db
      .select()
      .from(orders)
      .where(inConstants(orders.status, ['failed', 'expired']))
      .toSQL()
    expect(listed.params).toEqual([])
    expect(listed.sql).toContain(`"orders"."status" IN ('failed', 'expired')`)
  })

  it('refuses anything but a plain word', () => {
    expect(() => equalsConstant(orders.status, "held' OR '1'='1")).toThrow(/not a constant/)
    expect(() => inConstants(orders.status, ['failed', 'x)'])).toThrow(/not a constant/)
  })
})
