// The booking form only when the sale allows it (issue 41): not before the event's on-sale time, and
// while its waiting room is on only for a buyer admitted from the line (the server refuses the others
// anyway, with the same words). Seats a waiting list offers this buyer are theirs to book.
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type ReactNode, useEffect, useState } from 'react'
import { ADMISSION_NEEDED, NOT_ON_SALE_YET, TYPE_NOT_ON_SALE_YET } from '../../../../contracts/queue.ts'
import { myPlaceQuery, onSaleQuery } from '../../api/queue.ts'
import { formatInstantIn } from '../../ui/format.ts'
import { onSaleText } from '../../ui/sale-texts.ts'
import { useEventZone } from '../../ui/use-site.ts'

/** why this buyer may not book now, or null when they may (undefined: not known yet) */
export function saleRefusal(
  onsale: { opensAt: string; waitingRoom: boolean } | null,
  place: { state: string; admissionExpiresAt?: string | undefined } | null,
  now: number,
  offered: boolean,
): string | null {
  if (!onsale) return null
  if (now < Date.parse(onsale.opensAt)) return NOT_ON_SALE_YET
  if (!onsale.waitingRoom || offered) return null
  // a room closed by a sell-out no longer stands in front of the sale
  if (place?.state === 'closed') return null
  if (place?.state === 'admitted' && Date.parse(place.admissionExpiresAt ?? '') > now) return null
  return ADMISSION_NEEDED
}

/** why this ticket type may not be booked yet (its own sale time to come), or null */
export function typeRefusal(
  onsale: { ticketTypes: ReadonlyArray<{ ticketTypeId: string; opensAt: string }> } | null | undefined,
  ticketTypeId: string | undefined,
  now: number,
): string | null {
  const own = onsale?.ticketTypes.find((type) => type.ticketTypeId === ticketTypeId)
  return own && now < Date.parse(own.opensAt) ? TYPE_NOT_ON_SALE_YET : null
}

/**
 * The chosen ticket type's refusal, read again every second (it lifts at its time), and when its
 * sale opens while it is refused.
 */
export function useTypeRefusal(
  eventId: string,
  ticketTypeId: string | undefined,
): { refusal: string | null; opensAt: string | null } {
  const onsale = useQuery(onSaleQuery(eventId))
  const [now, setNow] = useState(() => Date.now())
  const waiting = typeRefusal(onsale.data, ticketTypeId, now) !== null
  useEffect(() => {
    if (!waiting) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [waiting])
  const refusal = typeRefusal(onsale.data, ticketTypeId, now)
  const own = onsale.data?.ticketTypes.find((type) => type.ticketTypeId === ticketTypeId)
  return { refusal, opensAt: refusal && own ? own.opensAt : null }
}

export function SaleAdmission(props: { eventId: string; offered: boolean; children: ReactNode }) {
  const { eventId, offered, children } = props
  const onsale = useQuery(onSaleQuery(eventId))
  const zone = useEventZone()
  const place = useQuery({ ...myPlaceQuery(eventId), enabled: onsale.data?.waitingRoom === true })
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  if (onsale.isPending || (onsale.data?.waitingRoom && place.isPending)) return null
  const refusal = saleRefusal(onsale.data ?? null, place.data ?? null, now, offered)
  if (refusal === null) return children
  return (
    <div className="card booking-form" role="status">
      <p>{refusal}</p>
      {/* when it opens (a time moved meanwhile is pushed to the event's room: live/follow.ts) */}
      {refusal === NOT_ON_SALE_YET && onsale.data && (
        <p className="sale-opens">{onSaleText(formatInstantIn(onsale.data.opensAt, zone))}</p>
      )}
      <Link to="/event/$id" params={{ id: eventId }}>
        Back to the event
      </Link>
    </div>
  )
}
