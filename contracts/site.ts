// What the web app needs to know about this installation before it shows anything.
import * as v from 'valibot'

export const SiteReply = v.object({
  /** payments go through the built-in test gateway: no money moves (the web app shows a banner) */
  testPayments: v.boolean(),
  /** cancelling a ticket (with its refund) closes this many hours before the event starts */
  cancelCutoffHours: v.number(),
  maxTicketsPerOrder: v.number(),
  /** the zone events' dates and times are written in */
  timeZone: v.string(),
})
export type SiteReply = v.InferOutput<typeof SiteReply>

export const TEST_MODE_BANNER = 'Test mode: no money moves'
