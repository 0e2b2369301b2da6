// An event's sale time on its organizer's page (issue 41): when the sale opens, with a waiting room
// or without, admitting a number of people a minute or following capacity (as many as keep the
// checkouts in progress at the server's target); saved with the server's message or its reason.
// With a room, the sale's figures live (pushed as `queue-stats` and set in the cache by
// live/follow.ts, so nothing is polled), the time to the back of the line, pause and resume.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { SALE_OPENED } from '../../../../contracts/queue.ts'
import { ApiError } from '../../api/client.ts'
import { keys } from '../../api/keys.ts'
import { eventQuery } from '../../api/queries.ts'
import {
  type OnSaleView,
  onSaleQuery,
  pauseQueue,
  type QueueStats,
  queueStatsQuery,
  resumeQueue,
  saveOnSale,
} from '../../api/queue.ts'
import { FetchError, messageOr } from '../../ui/fetched.tsx'
import { Field } from '../../ui/field.tsx'
import { Figure } from '../../ui/figure.tsx'
import { formatInstantIn, zoneName } from '../../ui/format.ts'
import { useNowPast } from '../../ui/use-now-past.ts'
import { useEventZone } from '../../ui/use-site.ts'
import { backOfLineSeconds, formatRate, formatWait } from '../../ui/waits.ts'
import {
  draftOf,
  emptySaleTime,
  hasOpened,
  onSaleBodyOf,
  type SaleTimeDraft,
  type TypeTimeDraft,
} from './sale-time-draft.ts'

export const saleTimeTexts = {
  heading: 'Sale time',
  none: 'No sale time is set: tickets are on sale as soon as the event is approved.',
  date: 'Date of opening',
  time: 'Time of opening',
  waitingRoom: 'Waiting room',
  waitingRoomHint: 'Buyers join a line and are admitted to book in turn.',
  admissions: 'Admissions',
  rate: 'A number per minute',
  capacity: 'Follow capacity',
  capacityHint: 'Admit people while the checkouts in progress stay below the target.',
  typeTimes: 'Ticket types on sale later',
  typeTimesHint: 'A ticket type not ticked here goes on sale with the event.',
  opensLater: 'goes on sale later',
  perMinute: 'People per minute',
  save: 'Save sale time',
  saving: 'Saving...',
  saveFailed: 'Could not save the sale time.',
  line: 'The line',
  figuresFailed: 'Error fetching the line.',
  waiting: 'Waiting',
  admitted: 'Admitted',
  inCheckout: 'In checkout',
  sold: 'Sold',
  ratePerMinute: 'Rate per minute',
  backOfLine: 'Time to the back of the line',
  unknown: 'Not known yet',
  nobody: 'Nobody is waiting',
  pause: 'Pause',
  resume: 'Resume',
  paused: 'Admissions are paused.',
  /** the time to the back of the line while paused (the section says why, once) */
  onHold: 'On hold',
  actionFailed: 'Could not change the line.',
} as const

export const opensText = (when: string) => `The sale opens ${when}.`
export const openedText = (when: string) => `The sale opened ${when}.`
/** which clock the form's dates and times are read on: the event's, whatever the browser's */
export const zoneHint = (zone: string) => `Dates and times are on the event’s clock (${zone}).`
export const typeDateText = (name: string) => `Date ${name} goes on sale`
export const typeTimeText = (name: string) => `Time ${name} goes on sale`

export function SaleTime({ eventId }: { eventId: string }) {
  const headingId = useId()
  const zone = useEventZone()
  const onsale = useQuery(onSaleQuery(eventId))
  // its ticket types, each of which may go on sale later than the event
  const event = useQuery(eventQuery(eventId))
  // the server's word on the last save, kept while the form starts again from what was saved
  const [message, setMessage] = useState<string | null>(null)
  const saved = onsale.data
  // the text turns from "opens" to "opened" as the time comes
  const now = useNowPast([saved ? Date.parse(saved.opensAt) : 0])
  return (
    <section className="sale-time event-analytics" aria-labelledby={headingId}>
      <h3 id={headingId}>{saleTimeTexts.heading}</h3>
      {onsale.isError ? (
        <FetchError message={messageOr(saleTimeTexts.saveFailed)(onsale.error)} />
      ) : onsale.isPending || event.isPending ? null : (
        <>
          <p>
            {saved
              ? (now >= Date.parse(saved.opensAt) ? openedText : opensText)(
                  formatInstantIn(saved.opensAt, zone),
                )
              : saleTimeTexts.none}
          </p>
          <SaleTimeForm
            // the form starts again from the sale as saved (here or elsewhere), in the zone it is
            // written in once that is known
            key={`${saved?.opensAt} ${saved?.waitingRoom} ${saved?.admitPerMinute} ${JSON.stringify(saved?.ticketTypes)} ${zone}`}
            eventId={eventId}
            saved={saved ?? null}
            types={event.data?.ticketTypes ?? []}
            zone={zone}
            onMessage={setMessage}
          />
          {message && (
            <p className="form-hint" role="status">
              {message}
            </p>
          )}
          {saved?.waitingRoom && <LineFigures eventId={eventId} />}
        </>
      )}
    </section>
  )
}

function SaleTimeForm(props: {
  eventId: string
  saved: OnSaleView | null
  types: ReadonlyArray<{ _id: string; type: string }>
  zone: string | undefined
  onMessage(message: string | null): void
}) {
  const { eventId, saved, types, zone, onMessage } = props
  const ids = {
    date: useId(),
    time: useId(),
    perMinute: useId(),
    hint: useId(),
    typesHint: useId(),
    zone: useId(),
  }
  const queryClient = useQueryClient()
  const [draft, setDraft] = useState(() => (saved ? draftOf(saved, zone, types) : emptySaleTime(types)))
  const [error, setError] = useState<string | null>(null)
  // a room that has opened keeps its time: its fields are fixed from the moment it opens
  const now = useNowPast([saved ? Date.parse(saved.opensAt) : 0])
  const opened = hasOpened(saved, now)
  const edit = (change: Partial<SaleTimeDraft>) => {
    setDraft((was) => ({ ...was, ...change }))
    onMessage(null)
  }
  const editType = (ticketTypeId: string, change: Partial<TypeTimeDraft>) => {
    setDraft((was) => ({
      ...was,
      types: was.types.map((type) => (type.ticketTypeId === ticketTypeId ? { ...type, ...change } : type)),
    }))
    onMessage(null)
  }
  const save = useMutation({
    mutationFn: (body: Parameters<typeof saveOnSale>[1]) => saveOnSale(eventId, body),
    onSuccess: (reply) => {
      onMessage(reply.message)
      queryClient.setQueryData(keys.onSale(eventId), reply.onsale)
      return queryClient.invalidateQueries({ queryKey: keys.queueStats(eventId) })
    },
    onError: (failure) => {
      setError(messageOr(saleTimeTexts.saveFailed)(failure))
      // opened meanwhile, or changed elsewhere: the sale as saved is read again
      if (failure instanceof ApiError && failure.status === 409)
        void queryClient.invalidateQueries({ queryKey: keys.onSale(eventId) })
    },
  })
  const submit = (form: FormEvent) => {
    form.preventDefault()
    setError(null)
    onMessage(null)
    const nowOpened = hasOpened(saved, Date.now())
    // opened while its time or room was being changed here: refused, not saved without the change
    if (nowOpened && saved && !opened) {
      const was = draftOf(saved, zone, types)
      if (draft.date !== was.date || draft.time !== was.time || draft.waitingRoom !== was.waitingRoom) {
        setError(SALE_OPENED)
        return
      }
    }
    const made = onSaleBodyOf(draft, zone, nowOpened && saved ? saved : undefined, Date.now())
    if ('error' in made) setError(made.error)
    else save.mutate(made.body)
  }
  const busy = save.isPending
  const fixed = busy || opened
  return (
    <form className="sale-time-form" onSubmit={submit} noValidate>
      {opened && <p className="form-hint">{SALE_OPENED}</p>}
      <div className="field">
        <label htmlFor={ids.date}>{saleTimeTexts.date}</label>
        <input
          id={ids.date}
          type="date"
          value={draft.date}
          disabled={fixed}
          onChange={(change) => edit({ date: change.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.time}>{saleTimeTexts.time}</label>
        <input
          id={ids.time}
          type="time"
          value={draft.time}
          disabled={fixed}
          aria-describedby={ids.zone}
          onChange={(change) => edit({ time: change.target.value })}
        />
        <p className="form-hint" id={ids.zone}>
          {zoneHint(zoneName(new Date(), zone))}
        </p>
      </div>
      <div className="sale-time-room">
        <label>
          <input
            type="checkbox"
            checked={draft.waitingRoom}
            disabled={fixed}
            aria-describedby={ids.hint}
            onChange={(change) => edit({ waitingRoom: change.target.checked })}
          />{' '}
          {saleTimeTexts.waitingRoom}
        </label>
        <p className="form-hint" id={ids.hint}>
          {saleTimeTexts.waitingRoomHint}
        </p>
      </div>
      {draft.waitingRoom && (
        <fieldset className="sale-time-admissions">
          <legend>{saleTimeTexts.admissions}</legend>
          <label>
            <input
              type="radio"
              name="admissions"
              checked={draft.admissions === 'rate'}
              disabled={busy}
              onChange={() => edit({ admissions: 'rate' })}
            />{' '}
            {saleTimeTexts.rate}
          </label>
          {draft.admissions === 'rate' && (
            <div className="field">
              <label htmlFor={ids.perMinute}>{saleTimeTexts.perMinute}</label>
              <input
                id={ids.perMinute}
                type="number"
                min={1}
                step={1}
                value={draft.perMinute}
                disabled={busy}
                onChange={(change) => edit({ perMinute: change.target.value })}
              />
            </div>
          )}
          <label>
            <input
              type="radio"
              name="admissions"
              checked={draft.admissions === 'capacity'}
              disabled={busy}
              onChange={() => edit({ admissions: 'capacity' })}
            />{' '}
            {saleTimeTexts.capacity}
          </label>
          {draft.admissions === 'capacity' && <p className="form-hint">{saleTimeTexts.capacityHint}</p>}
        </fieldset>
      )}
      {draft.types.length > 1 && (
        <fieldset className="sale-time-types" aria-describedby={ids.typesHint}>
          <legend>{saleTimeTexts.typeTimes}</legend>
          <p className="form-hint" id={ids.typesHint}>
            {saleTimeTexts.typeTimesHint}
          </p>
          {draft.types.map((type) => (
            <TypeTime key={type.ticketTypeId} type={type} busy={busy} onChange={editType} />
          ))}
        </fieldset>
      )}
      <button type="submit" disabled={busy}>
        {busy ? saleTimeTexts.saving : saleTimeTexts.save}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  )
}

/** one ticket type: ticked, it goes on sale at its own date and time */
function TypeTime(props: {
  type: TypeTimeDraft
  busy: boolean
  onChange(ticketTypeId: string, change: Partial<TypeTimeDraft>): void
}) {
  const { type, busy, onChange } = props
  return (
    <div className="sale-time-type">
      <label>
        <input
          type="checkbox"
          checked={type.later}
          disabled={busy}
          onChange={(change) => onChange(type.ticketTypeId, { later: change.target.checked })}
        />{' '}
        {`${type.name} ${saleTimeTexts.opensLater}`}
      </label>
      {type.later && (
        <div className="sale-time-type-when">
          <Field
            label={typeDateText(type.name)}
            type="date"
            value={type.date}
            disabled={busy}
            onChange={(change) => onChange(type.ticketTypeId, { date: change.target.value })}
          />
          <Field
            label={typeTimeText(type.name)}
            type="time"
            value={type.time}
            disabled={busy}
            onChange={(change) => onChange(type.ticketTypeId, { time: change.target.value })}
          />
        </div>
      )}
    </div>
  )
}

const backOfLineText = (stats: QueueStats) => {
  if (stats.paused && stats.waiting > 0) return saleTimeTexts.onHold
  const seconds = backOfLineSeconds(stats.waiting, stats.admitPerMinute)
  return seconds === null ? saleTimeTexts.unknown : seconds === 0 ? saleTimeTexts.nobody : formatWait(seconds)
}

/** the line's figures, as pushed, with pause and resume */
function LineFigures({ eventId }: { eventId: string }) {
  const headingId = useId()
  const queryClient = useQueryClient()
  const stats = useQuery(queueStatsQuery(eventId))
  const [error, setError] = useState<string | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const change = useMutation({
    mutationFn: (paused: boolean) => (paused ? pauseQueue(eventId) : resumeQueue(eventId)),
    onSuccess: (reply) => {
      setMessage(reply.message)
      return queryClient.invalidateQueries({ queryKey: keys.queueStats(eventId) })
    },
    onError: (failure) => setError(messageOr(saleTimeTexts.actionFailed)(failure)),
  })
  if (stats.isError) return <FetchError message={messageOr(saleTimeTexts.figuresFailed)(stats.error)} />
  if (!stats.data) return null
  const shown = stats.data
  return (
    <section className="sale-time-line" aria-labelledby={headingId}>
      <h4 id={headingId}>{saleTimeTexts.line}</h4>
      <div className="row-figures sale-time-figures">
        <Figure label={saleTimeTexts.waiting} value={shown.waiting} />
        <Figure label={saleTimeTexts.admitted} value={shown.admitted} />
        <Figure label={saleTimeTexts.inCheckout} value={shown.inCheckout} />
        <Figure label={saleTimeTexts.sold} value={shown.sold} />
        <Figure
          label={saleTimeTexts.ratePerMinute}
          value={shown.admitPerMinute === null ? saleTimeTexts.unknown : formatRate(shown.admitPerMinute)}
        />
        <Figure label={saleTimeTexts.backOfLine} value={backOfLineText(shown)} />
      </div>
      {shown.paused && <p role="status">{saleTimeTexts.paused}</p>}
      <button
        type="button"
        className="button-secondary"
        disabled={change.isPending}
        onClick={() => {
          setError(null)
          setMessage(null)
          change.mutate(!shown.paused)
        }}
      >
        {shown.paused ? saleTimeTexts.resume : saleTimeTexts.pause}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {message && <p className="form-hint">{message}</p>}
    </section>
  )
}
