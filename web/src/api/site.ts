// The installation's public settings (GET /site), read once per page load and shared.
import * as v from 'valibot'
import { SiteReply } from '../../../contracts/site.ts'
import { api } from './client.ts'

let site: Promise<SiteReply> | null = null

export function fetchSite(): Promise<SiteReply> {
  site ??= api.get<unknown>('/site').then(
    (reply) => v.parse(SiteReply, reply),
    (error) => {
      site = null // a failed read is tried again by the next screen that asks
      throw error
    },
  )
  return site
}
