// The organizer's changes to one event (issue 17), on its page: its details (its GST state and
// whether prices include GST among them) and its ticket types' prices, capacities and GST rates
// edited (the server keeps a capacity at or above the seats sold and held, and a new price applies
// to seats not yet sold; a new date, time or place of an approved event is
// mailed and pushed to its holders), or the event called off with a reason (its sales stop and
// every paid order is refunded), confirmed on the page itself (a native confirm() left browsers that
// answer no dialogs stuck). The server decides every rule and says what is wrong.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import {
  cancelEvent,
  type EventChanges,
  type TaxedEventView as EventView,
  editEvent,
} from '../../api/catalog.ts'
import { eventQuery, keys } from '../../api/queries.ts'
import { useEarliestStart } from '../../ui/earliest-start.ts'
import { messageOr } from '../../ui/fetched.tsx'
import {
  PricesIncludeTaxCheckbox,
  TaxRateOptions,
  taxTexts,
  useTaxRates,
  VenueStateSelect,
} from '../../ui/tax-fields.tsx'
import { notify } from '../../ui/toasts.ts'

export const changeTexts = {
  edit: 'Edit event',
  save: 'Save changes',
  saving: 'Saving...',
  saved: 'Event updated successfully',
  saveFailed: 'Could not save the changes.',
  movedNote:
    'Holders are told by mail and on their screens when the date, time or location of an approved event changes.',
  cancelHeading: 'Cancel event',
  reason: 'Reason (shown to ticket holders)',
  cancel: 'Cancel this event',
  cancelling: 'Cancelling...',
  confirmTitle: 'Cancel this event?',
  confirmDetail: 'Its sales stop and every paid order is refunded. This cannot be undone.',
  confirmYes: 'Yes, cancel the event',
  confirmNo: 'Keep the event',
  cancelled: 'Event cancelled. Every paid order will be refunded.',
  cancelFailed: 'Could not cancel the event.',
  isCancelled: 'This event has been cancelled.',
} as const

type Draft = {
  title: string
  description: string
  date: string
  time: string
  location: string
  category: string
  /** the venue's GST state code, '' for none */
  state: string
  pricesIncludeTax: boolean
  ticketTypes: Array<{ type: string; price: string; quantity: string; taxRate: string }>
}

const draftOf = (event: EventView): Draft => ({
  title: event.title,
  description: event.description,
  date: event.date,
  time: event.time,
  location: event.location,
  category: event.category,
  state: event.state ?? '',
  pricesIncludeTax: event.pricesIncludeTax,
  ticketTypes: event.ticketTypes.map((t) => ({
    type: t.type,
    price: String(t.price),
    quantity: String(t.capacity),
    taxRate: String(t.taxRate),
  })),
})

/** only what differs from the event as shown (the server ignores the rest anyway) */
function changesOf(event: EventView, draft: Draft): EventChanges {
  const changes: EventChanges = {}
  for (const key of ['title', 'description', 'date', 'time', 'location', 'category'] as const) {
    if (draft[key] !== event[key]) changes[key] = draft[key]
  }
  if (draft.state !== (event.state ?? '')) changes.state = draft.state
  if (draft.pricesIncludeTax !== event.pricesIncludeTax) changes.pricesIncludeTax = draft.pricesIncludeTax
  const types = draft.ticketTypes.map((t) => ({
    type: t.type,
    price: Number(t.price),
    quantity: Number(t.quantity),
    taxRate: Number(t.taxRate),
  }))
  const before = event.ticketTypes.map((t) => ({
    type: t.type,
    price: t.price,
    quantity: t.capacity,
    taxRate: t.taxRate,
  }))
  if (JSON.stringify(types) !== JSON.stringify(before)) changes.ticketTypes = types
  return changes
}

export function EventChangesPanel({ eventId }: { eventId: string }) {
  const event = useQuery(eventQuery(eventId))
  if (!event.data) return null
  if (event.data.cancelledAt) {
    return (
      <section className="event-changes event-analytics" data-cancelled="yes">
        <p className="form-error" role="status">
          {changeTexts.isCancelled} {event.data.cancelReason}
        </p>
      </section>
    )
  }
  return <EventChangesForms event={event.data} key={event.data.version} />
}

function EventChangesForms({ event }: { event: EventView }) {
  const ids = {
    title: useId(),
    description: useId(),
    date: useId(),
    time: useId(),
    location: useId(),
    category: useId(),
    reason: useId(),
    heading: useId(),
    confirmTitle: useId(),
    confirmDetail: useId(),
  }
  const queryClient = useQueryClient()
  const [draft, setDraft] = useState<Draft>(() => draftOf(event))
  const earliest = useEarliestStart(draft.date)
  const [error, setError] = useState<string | null>(null)
  const [reason, setReason] = useState('')
  const [cancelError, setCancelError] = useState<string | null>(null)
  /** the organizer asked to cancel: the page asks once more before anything is sent */
  const [confirming, setConfirming] = useState(false)
  const keepButton = useRef<HTMLButtonElement>(null)
  // the question takes the focus from the button that asked it (disabled meanwhile), on its safe
  // answer: Enter or Escape keeps the event
  useEffect(() => {
    if (confirming) keepButton.current?.focus()
  }, [confirming])
  const settle = (updated: EventView) => {
    queryClient.setQueryData(keys.event(updated._id), updated)
    return queryClient.invalidateQueries({ queryKey: keys.eventFigures(updated._id) })
  }
  const save = useMutation({
    mutationFn: (changes: EventChanges) => editEvent(event._id, changes),
    onSuccess: (updated) => {
      notify.success(changeTexts.saved)
      return settle(updated)
    },
    onError: (failure) => setError(messageOr(changeTexts.saveFailed)(failure)),
  })
  const callOff = useMutation({
    mutationFn: () => cancelEvent(event._id, reason.trim()),
    onSuccess: (updated) => {
      notify.success(changeTexts.cancelled)
      return settle(updated)
    },
    onError: (failure) => setCancelError(messageOr(changeTexts.cancelFailed)(failure)),
  })
  const submit = (form: FormEvent) => {
    form.preventDefault()
    setError(null)
    save.mutate(changesOf(event, draft))
  }
  const submitCancel = (form: FormEvent) => {
    form.preventDefault()
    setCancelError(null)
    setConfirming(true)
  }
  const confirmCancel = () => {
    setConfirming(false)
    callOff.mutate()
  }
  const rates = useTaxRates()
  const field = (
    key: Exclude<keyof Draft, 'ticketTypes' | 'state' | 'pricesIncludeTax'>,
    label: string,
    type = 'text',
    min: string | undefined = undefined,
  ) => (
    <div className="field">
      <label htmlFor={ids[key]}>{label}</label>
      {key === 'description' ? (
        <textarea
          id={ids[key]}
          value={draft[key]}
          onChange={(change) => setDraft({ ...draft, [key]: change.target.value })}
          disabled={save.isPending}
        />
      ) : (
        <input
          id={ids[key]}
          type={type}
          {...(min ? { min } : {})}
          value={draft[key]}
          onChange={(change) => setDraft({ ...draft, [key]: change.target.value })}
          disabled={save.isPending}
        />
      )}
    </div>
  )
  return (
    <section className="event-changes event-analytics" aria-labelledby={ids.heading}>
      <details>
        <summary id={ids.heading}>{changeTexts.edit}</summary>
        <form className="event-changes-form" onSubmit={submit} noValidate>
          {field('title', 'Title')}
          {field('description', 'Description')}
          {field('date', 'Date', 'date', earliest.date)}
          {field('time', 'Time', 'time', earliest.time)}
          {field('location', 'Location')}
          {field('category', 'Category')}
          <VenueStateSelect
            value={draft.state}
            disabled={save.isPending}
            onChange={(state) => setDraft({ ...draft, state })}
          />
          <PricesIncludeTaxCheckbox
            checked={draft.pricesIncludeTax}
            disabled={save.isPending}
            onChange={(pricesIncludeTax) => setDraft({ ...draft, pricesIncludeTax })}
          />
          {draft.ticketTypes.map((ticketType, index) => (
            <fieldset key={ticketType.type} className="event-changes-type">
              <legend>{ticketType.type}</legend>
              <label>
                Price (₹)
                <input
                  type="number"
                  min={0}
                  value={ticketType.price}
                  onChange={(change) =>
                    setDraft({
                      ...draft,
                      ticketTypes: draft.ticketTypes.map((t, i) =>
                        i === index ? { ...t, price: change.target.value } : t,
                      ),
                    })
                  }
                  disabled={save.isPending}
                />
              </label>
              <label>
                Capacity
                <input
                  type="number"
                  min={1}
                  value={ticketType.quantity}
                  onChange={(change) =>
                    setDraft({
                      ...draft,
                      ticketTypes: draft.ticketTypes.map((t, i) =>
                        i === index ? { ...t, quantity: change.target.value } : t,
                      ),
                    })
                  }
                  disabled={save.isPending}
                />
              </label>
              <label>
                {taxTexts.taxRate}
                <select
                  value={ticketType.taxRate}
                  onChange={(change) =>
                    setDraft({
                      ...draft,
                      ticketTypes: draft.ticketTypes.map((t, i) =>
                        i === index ? { ...t, taxRate: change.target.value } : t,
                      ),
                    })
                  }
                  disabled={save.isPending}
                >
                  <TaxRateOptions value={ticketType.taxRate} rates={rates} />
                </select>
              </label>
            </fieldset>
          ))}
          <p className="analytics-empty">{changeTexts.movedNote}</p>
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? changeTexts.saving : changeTexts.save}
          </button>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
        </form>
      </details>
      <details>
        <summary>{changeTexts.cancelHeading}</summary>
        <form className="event-changes-cancel" onSubmit={submitCancel} noValidate>
          <div className="field">
            <label htmlFor={ids.reason}>{changeTexts.reason}</label>
            <textarea
              id={ids.reason}
              value={reason}
              maxLength={500}
              onChange={(change) => setReason(change.target.value)}
              disabled={callOff.isPending}
            />
          </div>
          <button type="submit" className="button-danger" disabled={callOff.isPending || confirming}>
            {callOff.isPending ? changeTexts.cancelling : changeTexts.cancel}
          </button>
          {confirming && (
            <div
              role="alertdialog"
              className="event-changes-confirm"
              aria-labelledby={ids.confirmTitle}
              aria-describedby={ids.confirmDetail}
              onKeyDown={(key) => {
                if (key.key === 'Escape') setConfirming(false)
              }}
            >
              <p id={ids.confirmTitle} className="event-changes-confirm-title">
                {changeTexts.confirmTitle}
              </p>
              <p id={ids.confirmDetail}>{changeTexts.confirmDetail}</p>
              <div className="event-changes-confirm-actions">
                <button type="button" className="button-danger" onClick={confirmCancel}>
                  {changeTexts.confirmYes}
                </button>
                <button
                  ref={keepButton}
                  type="button"
                  className="button-secondary"
                  onClick={() => setConfirming(false)}
                >
                  {changeTexts.confirmNo}
                </button>
              </div>
            </div>
          )}
          {cancelError && (
            <p className="form-error" role="alert">
              {cancelError}
            </p>
          )}
        </form>
      </details>
    </section>
  )
}
