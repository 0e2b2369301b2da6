// The form that adds a webhook: its URL, the kinds it is told of (each with what it means) and its
// events (all of the organizer's or some). Checked with the server's own schema on submit; what
// the server refuses is shown at the field it names, until that field changes.
import type { UseQueryResult } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import { type WebhookKind, webhookKinds } from '../../../../contracts/webhooks.ts'
import { fieldErrorsOf } from '../../api/field-errors.ts'
import { type CreatedWebhook, createWebhook } from '../../api/webhooks.ts'
import { FetchError } from '../../ui/fetched.tsx'
import { FormError } from '../../ui/field.tsx'
import { FormControl } from '../../ui/form-control.tsx'
import { notify } from '../../ui/toasts.ts'
import { Choice, Choices } from './choices.tsx'
import {
  checkWebhookDraft,
  emptyWebhookDraft,
  type WebhookDraft,
  type WebhookErrors,
  webhookErrorsOf,
} from './webhook-form.ts'
import { kindTexts, webhookTexts } from './webhook-texts.ts'

export function NewWebhookForm(props: {
  events: UseQueryResult<EventView[]>
  onCreated(webhook: CreatedWebhook): void
}) {
  const [draft, setDraft] = useState<WebhookDraft>(emptyWebhookDraft)
  const [errors, setErrors] = useState<WebhookErrors>({})
  const [busy, setBusy] = useState(false)

  /** a change to one field clears its message and the form's */
  const change = <K extends keyof WebhookDraft>(
    key: K,
    value: WebhookDraft[K],
    field: keyof WebhookErrors,
  ) => {
    setDraft((previous) => ({ ...previous, [key]: value }))
    setErrors(({ [field]: _changed, form: _form, ...others }) => others)
  }
  const toggle = <T,>(list: readonly T[], item: T, on: boolean): T[] =>
    on ? [...list.filter((other) => other !== item), item] : list.filter((other) => other !== item)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const checked = checkWebhookDraft(draft)
    if (!checked.ok) {
      setErrors(checked.errors)
      return
    }
    setBusy(true)
    setErrors({})
    try {
      const made = await createWebhook(checked.body)
      setDraft(emptyWebhookDraft)
      props.onCreated(made)
    } catch (error) {
      setErrors(webhookErrorsOf(fieldErrorsOf(error)))
      notify.error(webhookTexts.createFailed)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="card form api-tokens-form" onSubmit={submit} noValidate aria-busy={busy}>
      <h2>{webhookTexts.newHeading}</h2>
      <FormControl label={webhookTexts.url} error={errors.url} announce>
        {(control) => (
          <input
            {...control}
            type="url"
            inputMode="url"
            maxLength={2000}
            autoComplete="off"
            spellCheck={false}
            placeholder="https://"
            value={draft.url}
            disabled={busy}
            onChange={(input) => change('url', input.target.value, 'url')}
          />
        )}
      </FormControl>
      <p className="form-hint">{webhookTexts.urlHint}</p>
      <Choices legend={webhookTexts.kinds} error={errors.events}>
        {webhookKinds.map((kind) => (
          <Choice
            key={kind}
            label={kind}
            hint={kindTexts[kind]}
            checked={draft.kinds.includes(kind)}
            disabled={busy}
            onChange={(on) => change('kinds', toggle<WebhookKind>(draft.kinds, kind, on), 'events')}
          />
        ))}
      </Choices>
      <Choices legend={webhookTexts.scope} error={errors.eventIds}>
        {(['all', 'some'] as const).map((scope) => (
          <Choice
            key={scope}
            type="radio"
            name="webhook-events"
            label={scope === 'all' ? webhookTexts.allEvents : webhookTexts.someEvents}
            checked={draft.scope === scope}
            disabled={busy}
            onChange={() => change('scope', scope, 'eventIds')}
          />
        ))}
        {draft.scope === 'some' && (
          <EventChoices
            events={props.events}
            chosen={draft.eventIds}
            disabled={busy}
            onChange={(id, on) => change('eventIds', toggle(draft.eventIds, id, on), 'eventIds')}
          />
        )}
      </Choices>
      <FormError message={errors.form ?? null} />
      <div>
        <button type="submit" disabled={busy}>
          {busy ? webhookTexts.creating : webhookTexts.create}
        </button>
      </div>
    </form>
  )
}

/** the organizer's events the webhook is for */
function EventChoices(props: {
  events: UseQueryResult<EventView[]>
  chosen: string[]
  disabled: boolean
  onChange(id: string, on: boolean): void
}) {
  const { events } = props
  if (events.data === undefined)
    return events.isError ? (
      <FetchError message={webhookTexts.eventsFailed} />
    ) : (
      <p className="form-hint">{webhookTexts.eventsLoading}</p>
    )
  if (events.data.length === 0) return <p className="form-hint">{webhookTexts.noEvents}</p>
  return (
    <div className="api-tokens-events">
      {events.data.map((event) => (
        <Choice
          key={event._id}
          label={event.title}
          checked={props.chosen.includes(event._id)}
          disabled={props.disabled}
          onChange={(on) => props.onChange(event._id, on)}
        />
      ))}
    </div>
  )
}
