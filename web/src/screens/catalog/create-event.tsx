// Create Event (/eventform, organizers; SPEC §2, §5, §8): the event's fields, its images and
// videos with previews, its ticket types; sent as multipart with a real upload progress bar.
// Checked as the organizer types with the server's own schema: a field's message shows once it has
// been touched (changed or left; every field after a submit) and goes as soon as the field is
// right. A chosen file that is not an image (or a video) is refused before any upload. What the
// server rejects is shown next to the field it names, until that field changes. One message per
// problem, in one place.
import { useNavigate } from '@tanstack/react-router'
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react'
import { createEvent } from '../../api/catalog.ts'
import { ApiError } from '../../api/client.ts'
import { useEarliestStart } from '../../ui/earliest-start.ts'
import { FormControl } from '../../ui/form-control.tsx'
import { PricesIncludeTaxCheckbox, useTaxRates, VenueStateSelect } from '../../ui/tax-fields.tsx'
import { notify } from '../../ui/toasts.ts'
import { MediaPicker } from './media-picker.tsx'
import { checkNewEvent, type EventDraft, type FieldErrors, type TicketTypeDraft } from './new-event-check.ts'
import { newTicketType, TicketTypesFieldset } from './ticket-types-fieldset.tsx'
import { UploadProgress } from './upload-progress.tsx'
import './catalog.css'

type TextField = 'title' | 'date' | 'time' | 'location' | 'category' | 'salesEnd'

const emptyDraft = (): EventDraft => ({
  title: '',
  description: '',
  date: '',
  time: '',
  location: '',
  category: '',
  ticketTypes: [newTicketType()],
  salesEnd: '',
  state: '',
  pricesIncludeTax: true,
})

/** the server's issues by field; those naming no field of this form are kept for the form itself */
function errorsOfReply(error: ApiError): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) errors[issue.field] ??= issue.message
  if (error.issues.length === 0) errors.event = error.message
  return errors
}

const knownField = (field: string) =>
  /^(title|description|date|time|location|category|salesEnd|state|pricesIncludeTax|images|videos|ticketTypes(\.\d+\.(type|price|quantity|taxRate))?)$/.test(
    field,
  )

/** the name a field is touched under: ticket rows by their own key, so removing one moves nothing */
function touchNameOf(field: string, ticketTypes: TicketTypeDraft[]): string {
  const row = /^ticketTypes\.(\d+)\.(type|price|quantity|taxRate)$/.exec(field)
  if (!row) return field.split('.')[0] ?? field
  const ticket = ticketTypes[Number(row[1])]
  return ticket ? `${ticket.key}.${row[2]}` : field
}

export function CreateEventScreen() {
  const navigate = useNavigate()
  const [draft, setDraft] = useState<EventDraft>(emptyDraft)
  const earliest = useEarliestStart(draft.date)
  const rates = useTaxRates()
  const [images, setImages] = useState<File[]>([])
  const [videos, setVideos] = useState<File[]>([])
  /** fields the organizer has changed or left: their messages show as they type */
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set())
  /** after a first submit every field's message shows */
  const [submitted, setSubmitted] = useState(false)
  /** what the server refused, each until its field changes */
  const [serverErrors, setServerErrors] = useState<FieldErrors>({})
  /** a chosen file refused by its first bytes, before any upload */
  const [refusals, setRefusals] = useState<{ images: string | null; videos: string | null }>({
    images: null,
    videos: null,
  })
  const [busy, setBusy] = useState(false)
  const [progress, setProgress] = useState<number | null>(null)
  /** counts refused submits: after each, the first field concerned takes the focus */
  const [refusedSubmits, setRefusedSubmits] = useState(0)
  const form = useRef<HTMLFormElement>(null)

  // After a refused submit the first field it concerns takes the focus, so the message is found
  // (never while typing: the messages that come and go then leave the focus where it is).
  useEffect(() => {
    if (refusedSubmits > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [refusedSubmits])

  // The form's own check runs on every change, with the server's schema.
  const checked = useMemo(() => checkNewEvent(draft), [draft])

  // One message per field: the live check's (once the field is touched), else the server's; a
  // refused file's own message replaces whatever the server said of the earlier choice.
  const errors: FieldErrors = {}
  if (!checked.ok) {
    for (const [field, message] of Object.entries(checked.errors))
      if (submitted || touched.has(touchNameOf(field, draft.ticketTypes))) errors[field] = message
  }
  for (const [field, message] of Object.entries(serverErrors)) errors[field] ??= message
  if (refusals.images) errors.images = refusals.images
  if (refusals.videos) errors.videos = refusals.videos
  // What names no field of the form is said once below it, unless a field already says it.
  const atFields = new Set(
    Object.entries(errors)
      .filter(([field]) => knownField(field))
      .map(([, message]) => message),
  )
  const formErrors = [
    ...new Set(
      Object.entries(errors)
        .filter(([field]) => !knownField(field))
        .map(([, message]) => message)
        .filter((message) => !atFields.has(message)),
    ),
  ]

  const touch = (...names: string[]) =>
    setTouched((known) => (names.every((name) => known.has(name)) ? known : new Set([...known, ...names])))
  /** forgets what the server said of these fields (they changed since) */
  const forgetServer = (matches: (field: string) => boolean) =>
    setServerErrors((known) =>
      Object.keys(known).some(matches)
        ? Object.fromEntries(Object.entries(known).filter(([field]) => !matches(field)))
        : known,
    )

  const set = (change: Partial<EventDraft>) => setDraft((previous) => ({ ...previous, ...change }))
  const setText = (name: TextField | 'description', value: string) => {
    set({ [name]: value })
    touch(name)
    // a sales end is checked against the start, so the start's change concerns it too
    forgetServer((field) => field === name || ((name === 'date' || name === 'time') && field === 'salesEnd'))
  }
  const textInput = (name: TextField, label: string, attributes: { type?: string; min?: string } = {}) => (
    <FormControl label={label} error={errors[name]}>
      {(control) => (
        <input
          {...control}
          type="text"
          {...attributes}
          value={draft[name]}
          disabled={busy}
          onChange={(e) => setText(name, e.target.value)}
          onBlur={() => touch(name)}
        />
      )}
    </FormControl>
  )
  const pickMedia = (field: 'images' | 'videos', files: File[], refusal: string | null) => {
    ;(field === 'images' ? setImages : setVideos)(files)
    setRefusals((known) => ({ ...known, [field]: refusal }))
    forgetServer((name) => name === field)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    setSubmitted(true)
    setServerErrors({})
    if (!checked.ok || refusals.images || refusals.videos) {
      setRefusedSubmits((n) => n + 1)
      return
    }
    setBusy(true)
    setProgress(0)
    const { title, description, date, time, location, category, ticketTypes, salesEnd } = checked.event
    try {
      const { eventId } = await createEvent(
        {
          fields: {
            title,
            description,
            date,
            time,
            location,
            category,
            ...(salesEnd ? { salesEnd } : {}),
            state: draft.state,
            pricesIncludeTax: String(draft.pricesIncludeTax),
          },
          // the schema's list keeps the draft's order: each type takes its own row's rate
          ticketTypes: ticketTypes.map((ticket, index) => ({
            ...ticket,
            taxRate: Number(draft.ticketTypes[index]?.taxRate ?? 0),
          })),
          images,
          videos,
        },
        setProgress,
      )
      notify.success('Event created successfully')
      // its own page, where it waits for review (SPEC's landing page said nothing of it)
      if (eventId) await navigate({ to: '/organizers/events/$eventId', params: { eventId } })
      else await navigate({ to: '/' })
    } catch (error) {
      notify.error('Error creating event')
      setServerErrors(error instanceof ApiError ? errorsOfReply(error) : { event: 'Error creating event' })
      setRefusedSubmits((n) => n + 1)
      setBusy(false)
      setProgress(null)
    }
  }

  return (
    <section className="page form-page">
      <form ref={form} className="card form event-form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Create Event</h1>
        {textInput('title', 'Event Title')}
        <FormControl label="Description" error={errors.description}>
          {(control) => (
            <textarea
              {...control}
              rows={4}
              value={draft.description}
              disabled={busy}
              onChange={(e) => setText('description', e.target.value)}
              onBlur={() => touch('description')}
            />
          )}
        </FormControl>
        {textInput('date', 'Date', { type: 'date', min: earliest.date })}
        {textInput('time', 'Time', { type: 'time', ...(earliest.time ? { min: earliest.time } : {}) })}
        {textInput('salesEnd', 'Sales End (optional)', { type: 'datetime-local' })}
        {textInput('location', 'Location')}
        <VenueStateSelect
          value={draft.state}
          error={errors.state}
          disabled={busy}
          onChange={(state) => {
            set({ state })
            touch('state')
            forgetServer((field) => field === 'state')
          }}
          onBlur={() => touch('state')}
        />
        {textInput('category', 'Category')}
        <MediaPicker
          label="Upload Images"
          kind="image"
          files={images}
          error={errors.images}
          disabled={busy}
          onChange={(files, refusal) => pickMedia('images', files, refusal)}
        />
        <MediaPicker
          label="Upload Videos"
          kind="video"
          files={videos}
          error={errors.videos}
          disabled={busy}
          onChange={(files, refusal) => pickMedia('videos', files, refusal)}
        />
        <PricesIncludeTaxCheckbox
          checked={draft.pricesIncludeTax}
          disabled={busy}
          onChange={(pricesIncludeTax) => {
            set({ pricesIncludeTax })
            forgetServer((field) => field === 'pricesIncludeTax')
          }}
        />
        <TicketTypesFieldset
          ticketTypes={draft.ticketTypes}
          rates={rates}
          errors={errors}
          disabled={busy}
          onChange={(ticketTypes) => {
            set({ ticketTypes })
            touch('ticketTypes')
            forgetServer((field) => field.startsWith('ticketTypes') || field === 'state')
          }}
          onTouch={(name) => touch(name)}
        />
        {formErrors.map((message) => (
          <p key={message} className="form-error" role="alert">
            {message}
          </p>
        ))}
        {progress !== null && <UploadProgress percent={progress} />}
        <button type="submit" disabled={busy}>
          {busy ? 'Creating Event...' : 'Create Event'}
        </button>
      </form>
    </section>
  )
}
