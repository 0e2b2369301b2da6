// The installation's public settings (GET /site); read once per page load. Its query lives here,
// not in queries.ts, because the test-mode banner reads it on every page.
import { queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import { SiteReply } from '../../../contracts/site.ts'
import { api } from './client.ts'
import { keys } from './keys.ts'

export const fetchSite = async (): Promise<SiteReply> => v.parse(SiteReply, await api.get<unknown>('/site'))

export const siteQuery = () => queryOptions({ queryKey: keys.site, queryFn: fetchSite, staleTime: Infinity })
