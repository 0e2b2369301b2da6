// Create Event (/eventform, organizers; SPEC §2, §5, §8): the event's fields, its images and
// videos with previews, its ticket types; sent as multipart with a real upload progress bar.
// What the server rejects is shown next to the field it names.
import { useNavigate } from '@tanstack/react-router'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { createEvent } from '../../api/catalog.ts'
import { ApiError } from '../../api/client.ts'
import { notify } from '../../ui/toasts.ts'
import { FormControl } from './form-control.tsx'
import { MediaPicker } from './media-picker.tsx'
import { checkNewEvent, type EventDraft, type FieldErrors } from './new-event-check.ts'
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
})

/** today in the organizer's own calendar, for the date picker's lower bound */
const today = () => {
  const now = new Date()
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** the server's issues by field; those naming no field of this form are kept for the form itself */
function errorsOfReply(error: ApiError): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) errors[issue.field] ??= issue.message
  if (error.issues.length === 0) errors.event = error.message
  return errors
}

const knownField = (field: string) =>
  /^(title|description|date|time|location|category|salesEnd|images|videos|ticketTypes(\.\d+\.(type|price|quantity))?)$/.test(
    field,
  )

export function CreateEventScreen() {
  const navigate = useNavigate()
  const [draft, setDraft] = useState<EventDraft>(emptyDraft)
  const [images, setImages] = useState<File[]>([])
  const [videos, setVideos] = useState<File[]>([])
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)
  const [progress, setProgress] = useState<number | null>(null)
  const form = useRef<HTMLFormElement>(null)

  // After a refusal the first field it concerns takes the focus, so the message is found.
  useEffect(() => {
    if (Object.keys(errors).length > 0)
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [errors])

  const set = (change: Partial<EventDraft>) => setDraft((previous) => ({ ...previous, ...change }))
  const textInput = (name: TextField, label: string, attributes: { type?: string; min?: string } = {}) => (
    <FormControl label={label} error={errors[name]}>
      {(control) => (
        <input
          {...control}
          type="text"
          {...attributes}
          value={draft[name]}
          disabled={busy}
          onChange={(e) => set({ [name]: e.target.value })}
        />
      )}
    </FormControl>
  )
  const formErrors = Object.entries(errors)
    .filter(([field]) => !knownField(field))
    .map(([, message]) => message)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const checked = checkNewEvent(draft)
    if (!checked.ok) {
      setErrors(checked.errors)
      return
    }
    setErrors({})
    setBusy(true)
    setProgress(0)
    const { title, description, date, time, location, category, ticketTypes, salesEnd } = checked.event
    try {
      await createEvent(
        {
          fields: { title, description, date, time, location, category, ...(salesEnd ? { salesEnd } : {}) },
          ticketTypes,
          images,
          videos,
        },
        setProgress,
      )
      notify.success('Event created successfully')
      await navigate({ to: '/' })
    } catch (error) {
      notify.error('Error creating event')
      setErrors(error instanceof ApiError ? errorsOfReply(error) : { event: 'Error creating event' })
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
              onChange={(e) => set({ description: e.target.value })}
            />
          )}
        </FormControl>
        {textInput('date', 'Date', { type: 'date', min: today() })}
        {textInput('time', 'Time', { type: 'time' })}
        {textInput('salesEnd', 'Sales End (optional)', { type: 'datetime-local' })}
        {textInput('location', 'Location')}
        {textInput('category', 'Category')}
        <MediaPicker
          label="Upload Images"
          kind="image"
          files={images}
          error={errors.images}
          disabled={busy}
          onChange={setImages}
        />
        <MediaPicker
          label="Upload Videos"
          kind="video"
          files={videos}
          error={errors.videos}
          disabled={busy}
          onChange={setVideos}
        />
        <TicketTypesFieldset
          ticketTypes={draft.ticketTypes}
          errors={errors}
          disabled={busy}
          onChange={(ticketTypes) => set({ ticketTypes })}
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
