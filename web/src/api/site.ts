// The installation's public settings (GET /site); read once per page load (api/queries.ts).
import * as v from 'valibot'
import { SiteReply } from '../../../contracts/site.ts'
import { api } from './client.ts'

export const fetchSite = async (): Promise<SiteReply> => v.parse(SiteReply, await api.get<unknown>('/site'))
