// The organizer's saved seat map, live (issue 40): its seats as they stand now, and a seat chosen
// on it (a click, or Enter or Space) answered with who holds it, asked of the server for that seat
// only and again whenever its status changes.
import { useQuery } from '@tanstack/react-query'
import { useId, useMemo, useState } from 'react'
import type { SeatHolderView, SeatMapView } from '../../../../contracts/seating.ts'
import { seatHolderQuery } from '../../api/seating.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { seatLine } from '../../ui/seat-label.ts'
import { ticketNumber } from '../../ui/ticket-number.ts'
import { SeatKey, SeatPlan } from './seat-plan.tsx'
import { pickedSeat } from './seat-selection.ts'

export const holderTexts = {
  heading: 'Seats now',
  map: 'Seats now',
  hint: 'Choose a sold or held seat to see who has it.',
  panel: 'Seat holder',
  free: 'This seat is free.',
  blocked: 'This seat is not for sale.',
  loading: 'Looking up the holder…',
  failed: 'The seat’s holder could not be read.',
} as const

const statusWords = { sold: 'Sold', held: 'Held (payment not finished)' } as const

export function SeatHolders({ eventId, map }: { eventId: string; map: SeatMapView }) {
  const id = useId()
  const [chosen, setChosen] = useState<string | null>(null)
  const noneSelected = useMemo(() => new Set<string>(), [])
  const selected = useMemo(() => (chosen ? new Set([chosen]) : noneSelected), [chosen, noneSelected])
  const seat = chosen ? pickedSeat(map, chosen) : null
  return (
    <section aria-labelledby={`${id}-heading`} className="seat-holders">
      <h4 id={`${id}-heading`}>{holderTexts.heading}</h4>
      <p className="form-hint">{holderTexts.hint}</p>
      <SeatKey mode="edit" />
      <SeatPlan map={map} label={holderTexts.map} selected={selected} mode="edit" onActivate={setChosen} />
      {/* read out as it changes: a seat chosen by keyboard is answered without moving the focus */}
      <section aria-label={holderTexts.panel} aria-live="polite" className="seat-holder">
        {seat && (
          <>
            <p>
              <strong>{seatLine(seat)}</strong>
            </p>
            {seat.status === 'free' ? (
              <p>{holderTexts.free}</p>
            ) : seat.status === 'blocked' ? (
              <p>{holderTexts.blocked}</p>
            ) : (
              <Holder eventId={eventId} seatId={seat.id} status={seat.status} />
            )}
          </>
        )}
      </section>
    </section>
  )
}

function Holder(props: { eventId: string; seatId: string; status: 'held' | 'sold' }) {
  const holder = useQuery(seatHolderQuery(props.eventId, props.seatId, props.status))
  return (
    <Fetched
      query={holder}
      loading={<p>{holderTexts.loading}</p>}
      failed={messageOr(holderTexts.failed)}
      frame={(content) => content}
    >
      {(view) => <HolderFacts view={view} />}
    </Fetched>
  )
}

function HolderFacts({ view }: { view: SeatHolderView }) {
  if (view.status === 'free') return <p>{holderTexts.free}</p>
  if (view.status === 'blocked') return <p>{holderTexts.blocked}</p>
  return (
    <dl className="seat-holder-facts">
      <dt>Status</dt>
      <dd>{statusWords[view.status]}</dd>
      <dt>Name</dt>
      <dd>{view.holder?.username ?? '–'}</dd>
      <dt>Email</dt>
      <dd>{view.holder?.email ?? '–'}</dd>
      <dt>Ticket No.</dt>
      <dd className="ticket-number">{view.ticketId ? ticketNumber(view.ticketId) : '–'}</dd>
    </dl>
  )
}
