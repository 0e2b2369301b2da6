// The installation's settings for a screen: null until known (or when they could not be read).
import { useQuery } from '@tanstack/react-query'
import type { SiteReply } from '../../../contracts/site.ts'
import { siteQuery } from '../api/site.ts'

export function useSite(): SiteReply | null {
  return useQuery(siteQuery()).data ?? null
}

/** The zone events' dates and times are written in (TIMEZONE), once the settings are read. */
export function useEventZone(): string | undefined {
  return useSite()?.timeZone
}
