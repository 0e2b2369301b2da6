// sale-stores (issue 15, "Figures"): the flash sale and the full purchase on SQLite and on
// PostgreSQL, each with 1 and with 2 app processes, in the same run and measured alike (the same
// load generators, connections, warm-up and amounts as flash-sale.ts and purchase.ts; the whole
// server side on the server's core, the generator on the other: lib/deploy.ts). For where each
// store is the better choice.
import { benchFlashSaleOn, type FlashSaleVariantResult } from './flash-sale.ts'
import { variants } from './lib/deploy.ts'
import { benchPurchaseOn, type PurchaseVariantResult } from './purchase.ts'

export type SaleStoresResult = {
  flashSale: FlashSaleVariantResult[]
  purchase: PurchaseVariantResult[]
}

export async function benchSaleStores(rounds = 3, log: (line: string) => void = () => {}) {
  const result: SaleStoresResult = { flashSale: [], purchase: [] }
  for (const variant of variants) {
    const figures = await benchFlashSaleOn(variant, rounds)
    log(`flash sale ${variant.store} × ${variant.apps}: ${JSON.stringify(figures)}`)
    result.flashSale.push(figures)
  }
  for (const variant of variants) {
    const figures = await benchPurchaseOn(variant, rounds)
    log(`full purchase ${variant.store} × ${variant.apps}: ${JSON.stringify(figures)}`)
    result.purchase.push(figures)
  }
  return result
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchSaleStores(Number(process.argv[2] ?? 1), console.error), null, 2))
}
