// Add session form (/schedule/{id}, organizers, own event; SPEC §2, §5, §8): title, description,
// start and end, speakers added one by one, location. On success: 'Session created successfully',
// the landing page, and then the notice to the event's attendees (POST /notify). What the server
// refuses is shown next to the field it names.
import { useQuery } from '@tanstack/react-query'
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import { ApiError } from '../../api/client.ts'
import { eventQuery } from '../../api/queries.ts'
import { createSession, notifyAttendees } from '../../api/schedule.ts'
import { useSession } from '../../session/use-session.ts'
import { FetchError } from '../../ui/fetched.tsx'
import { FormControl } from '../../ui/form-control.tsx'
import { Loading } from '../../ui/loading.tsx'
import { notify } from '../../ui/toasts.ts'
import {
  checkSession,
  emptyDraft,
  type FieldErrors,
  type SessionDraft,
  type Speaker,
  speakerComplete,
} from './session-draft.ts'
import './schedule.css'

const addSessionRoute = getRouteApi('/_signed-in/_organizers/schedule/$id')

const knownField = (field: string) =>
  /^(sessionTitle|description|startTime|endTime|location|speakers(\.\d+\.(name|bio))?)$/.test(field)

function errorsOfReply(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return { session: 'The session could not be created. Please try again.' }
  const errors: FieldErrors = {}
  for (const issue of error.issues) errors[issue.field] ??= issue.message
  if (error.issues.length === 0) errors.session = error.message
  return errors
}

/** the page of an event that is not there, or not the signed-in organizer's own */
function EventNotFound() {
  return (
    <section className="page not-available">
      <h1>Add Session</h1>
      <FetchError message="Event not found." />
      <Link to="/organizers/dashboard" className="button">
        Back to Dashboard
      </Link>
    </section>
  )
}

export function AddSessionScreen() {
  const { id } = addSessionRoute.useParams()
  const { user } = useSession()
  const event = useQuery(eventQuery(id))
  if (event.data === undefined) return event.isError ? <EventNotFound /> : <Loading />
  // Only the event's own organizer adds its sessions (the server says the same).
  if (event.data.organizer !== user?._id) return <EventNotFound />
  return <AddSessionForm event={event.data} />
}

function AddSessionForm({ event }: { event: EventView }) {
  const eventId = event._id
  const navigate = useNavigate()
  const [draft, setDraft] = useState<SessionDraft>(emptyDraft)
  const [speaker, setSpeaker] = useState<Speaker>({ name: '', bio: '' })
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const nextSpeakerKey = useRef(0)

  // After a refusal the first field it concerns takes the focus, so its message is found.
  useEffect(() => {
    if (Object.keys(errors).length > 0)
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [errors])

  const set = (change: Partial<SessionDraft>) => setDraft((previous) => ({ ...previous, ...change }))

  const addSpeaker = () => {
    if (!speakerComplete(speaker)) {
      notify.errorShort('Please provide both name and bio for the speaker.')
      return
    }
    const added = { key: nextSpeakerKey.current++, name: speaker.name.trim(), bio: speaker.bio.trim() }
    set({ speakers: [...draft.speakers, added] })
    setSpeaker({ name: '', bio: '' })
  }

  const removeSpeaker = (key: number) => set({ speakers: draft.speakers.filter((one) => one.key !== key) })

  const submit = async (submitted: FormEvent<HTMLFormElement>) => {
    submitted.preventDefault()
    if (busy) return
    const checked = checkSession(eventId, draft)
    if (!checked.ok) {
      setErrors(checked.errors)
      return
    }
    setErrors({})
    setBusy(true)
    const { startTime, endTime } = checked.session
    try {
      await createSession(checked.session)
    } catch (error) {
      setErrors(errorsOfReply(error))
      setBusy(false)
      return
    }
    notify.successShort('Session created successfully')
    await navigate({ to: '/' })
    // The session is stored; its attendees hear of it next (SPEC §7: the post is followed by notify).
    notifyAttendees({ eventId, startTime, endTime }).catch((error: unknown) => {
      console.error('The attendees could not be notified of the new session', error)
      notify.errorShort('The attendees could not be notified of the session.')
    })
  }

  const formErrors = Object.entries(errors)
    .filter(([field]) => !knownField(field))
    .map(([, message]) => message)
  const speakerError = Object.entries(errors).find(([field]) => field.startsWith('speakers'))?.[1]

  return (
    <section className="page form-page">
      <form ref={form} className="card form session-form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Add Session</h1>
        <p className="form-hint">{event.title}</p>
        <FormControl label="Session Title" error={errors.sessionTitle}>
          {(control) => (
            <input
              {...control}
              type="text"
              required
              maxLength={150}
              value={draft.sessionTitle}
              disabled={busy}
              onChange={(e) => set({ sessionTitle: e.target.value })}
            />
          )}
        </FormControl>
        <FormControl label="Description" error={errors.description}>
          {(control) => (
            <textarea
              {...control}
              rows={3}
              maxLength={2000}
              value={draft.description}
              disabled={busy}
              onChange={(e) => set({ description: e.target.value })}
            />
          )}
        </FormControl>
        <div className="session-times">
          <FormControl label="Start Time" error={errors.startTime}>
            {(control) => (
              <input
                {...control}
                type="datetime-local"
                required
                value={draft.startTime}
                disabled={busy}
                onChange={(e) => set({ startTime: e.target.value })}
              />
            )}
          </FormControl>
          <FormControl label="End Time" error={errors.endTime}>
            {(control) => (
              <input
                {...control}
                type="datetime-local"
                required
                min={draft.startTime || undefined}
                value={draft.endTime}
                disabled={busy}
                onChange={(e) => set({ endTime: e.target.value })}
              />
            )}
          </FormControl>
        </div>
        <fieldset className="speakers" disabled={busy}>
          <legend>Speakers</legend>
          {draft.speakers.length > 0 && (
            <ul className="speaker-list" aria-label="Speakers">
              {draft.speakers.map((added) => (
                <li key={added.key}>
                  <div>
                    <strong>{added.name}</strong>
                    <p>{added.bio}</p>
                  </div>
                  <button
                    type="button"
                    className="button-secondary"
                    aria-label={`Remove ${added.name}`}
                    onClick={() => removeSpeaker(added.key)}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
          <FormControl label="Speaker Name">
            {(control) => (
              <input
                {...control}
                type="text"
                maxLength={100}
                value={speaker.name}
                onChange={(e) => setSpeaker({ ...speaker, name: e.target.value })}
              />
            )}
          </FormControl>
          <FormControl label="Speaker Bio">
            {(control) => (
              <textarea
                {...control}
                rows={2}
                maxLength={1000}
                value={speaker.bio}
                onChange={(e) => setSpeaker({ ...speaker, bio: e.target.value })}
              />
            )}
          </FormControl>
          <button type="button" className="button-secondary" onClick={addSpeaker}>
            Add Speaker
          </button>
          {speakerError && <p className="field-error">{speakerError}</p>}
        </fieldset>
        <FormControl label="Location" error={errors.location}>
          {(control) => (
            <input
              {...control}
              type="text"
              maxLength={200}
              value={draft.location}
              disabled={busy}
              onChange={(e) => set({ location: e.target.value })}
            />
          )}
        </FormControl>
        {formErrors.map((message) => (
          <p key={message} className="form-error" role="alert">
            {message}
          </p>
        ))}
        <button type="submit" disabled={busy}>
          {busy ? 'Creating Session...' : 'Create Session'}
        </button>
      </form>
    </section>
  )
}
