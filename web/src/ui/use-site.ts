// The installation's settings for a screen: null until known (or when they could not be read).
import { useEffect, useState } from 'react'
import type { SiteReply } from '../../../contracts/site.ts'
import { fetchSite } from '../api/site.ts'

export function useSite(): SiteReply | null {
  const [site, setSite] = useState<SiteReply | null>(null)
  useEffect(() => {
    let current = true
    fetchSite().then(
      (reply) => {
        if (current) setSite(reply)
      },
      () => {},
    )
    return () => {
      current = false
    }
  }, [])
  return site
}
