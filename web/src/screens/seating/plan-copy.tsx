// "Copy a plan from" (issue 40): the organizer starts this event's draft from the saved plan of
// another of their events, those at this event's venue first and each with its venue shown. The plan is read as the event's map
// (GET /event/{id}/seatmap, which its organizer may read before approval too) and its sections take
// this event's ticket types by name (plan-reuse.ts).
import { useMutation, useQuery } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { dashboardEventsQuery, eventFiguresQuery } from '../../api/queries.ts'
import { fetchSeatMap } from '../../api/seating.ts'
import { formatDate } from '../../ui/format.ts'
import type { Draft } from './plan-draft.ts'
import { eventsToCopyFrom, reusedDraft, unassignedSections } from './plan-reuse.ts'

/** the organizer's events offered: their latest, a page of the dashboard's */
const OTHER_EVENTS = { page: 1, limit: 100 } as const

export const copyTexts = {
  legend: 'Copy a plan from another event',
  event: 'Event',
  choose: 'Choose an event',
  hint: 'Its sections, rows, seats and stage replace the ones drawn here; nothing is saved until you save.',
  chooseFirst: 'Choose the event to copy a plan from.',
  copy: 'Copy plan',
  copying: 'Copying…',
  noMap: (title: string) => `${title} has no seat map.`,
  copied: (title: string, sections: number) =>
    `Copied the plan of ${title}: ${sections} ${sections === 1 ? 'section' : 'sections'}.`,
  assign: (sections: string[]) => `Choose a ticket type for ${sections.join(', ')}.`,
} as const

export function PlanCopy(props: { eventId: string; typeNames: string[]; onCopy(draft: Draft): void }) {
  const { eventId, typeNames, onCopy } = props
  const id = useId()
  const figures = useQuery(eventFiguresQuery(eventId))
  const events = useQuery(dashboardEventsQuery(OTHER_EVENTS))
  const [source, setSource] = useState('')
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null)
  // the organizer's other events, those at this one's venue first
  const others = figures.data ? eventsToCopyFrom(events.data?.events ?? [], figures.data) : []

  const copy = useMutation({
    mutationFn: (sourceId: string) => fetchSeatMap(sourceId),
    onSuccess: (map, sourceId) => {
      const title = others.find((row) => row._id === sourceId)?.title ?? 'That event'
      if (!map) {
        setSaid({ ok: false, text: copyTexts.noMap(title) })
        return
      }
      const draft = reusedDraft(map, typeNames)
      onCopy(draft)
      const unassigned = unassignedSections(draft, typeNames)
      setSaid({
        ok: true,
        text: [
          copyTexts.copied(title, draft.sections.length),
          ...(unassigned.length > 0 ? [copyTexts.assign(unassigned)] : []),
        ].join(' '),
      })
    },
    onError: (error) => setSaid({ ok: false, text: error.message }),
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!source) {
      setSaid({ ok: false, text: copyTexts.chooseFirst })
      return
    }
    copy.mutate(source)
  }

  if (figures.data && events.data && others.length === 0) return null
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-legend`}>
      <fieldset>
        <legend id={`${id}-legend`}>{copyTexts.legend}</legend>
        <div className="field">
          <label htmlFor={`${id}-event`}>{copyTexts.event}</label>
          <select
            id={`${id}-event`}
            value={source}
            aria-describedby={`${id}-hint`}
            onChange={(e) => setSource(e.target.value)}
          >
            <option value="">{copyTexts.choose}</option>
            {others.map((row) => (
              <option key={row._id} value={row._id}>
                {`${row.title} · ${row.location} · ${formatDate(row.date)}`}
              </option>
            ))}
          </select>
          <small id={`${id}-hint`} className="form-hint">
            {copyTexts.hint}
          </small>
        </div>
        <div className="field">
          <button type="submit" className="button-secondary" disabled={copy.isPending}>
            {copy.isPending ? copyTexts.copying : copyTexts.copy}
          </button>
        </div>
      </fieldset>
      {said && (
        <p className={said.ok ? 'form-hint' : 'form-error'} role={said.ok ? 'status' : 'alert'}>
          {said.text}
        </p>
      )}
    </form>
  )
}
