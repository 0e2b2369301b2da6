// The form that makes an API token: its name, scopes (each with what it lets a program do), events
// (all of an organizer's or some; an admin's cover all) and last day. Checked with the server's own
// schema on submit; what the server refuses is shown at the field it names, until that field changes.
import type { UseQueryResult } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import { type TokenScope, tokenScopes } from '../../../../contracts/tokens.ts'
import { fieldErrorsOf } from '../../api/field-errors.ts'
import { type CreatedToken, createToken } from '../../api/tokens.ts'
import { FetchError } from '../../ui/fetched.tsx'
import { FormError } from '../../ui/field.tsx'
import { FormControl } from '../../ui/form-control.tsx'
import { notify } from '../../ui/toasts.ts'
import { Choice, Choices } from './choices.tsx'
import {
  checkTokenDraft,
  emptyDraft,
  type TokenDraft,
  type TokenErrors,
  tokenErrorsOf,
} from './token-form.ts'
import { scopeTexts, tokenTexts } from './token-texts.ts'

export function NewTokenForm(props: {
  organizer: boolean
  events: UseQueryResult<EventView[]>
  onCreated(token: CreatedToken): void
}) {
  const { organizer, events } = props
  const [draft, setDraft] = useState<TokenDraft>(emptyDraft)
  const [errors, setErrors] = useState<TokenErrors>({})
  const [busy, setBusy] = useState(false)
  const today = new Date().toLocaleDateString('en-CA')

  /** a change to one field clears its message and the form's */
  const change = <K extends keyof TokenDraft>(key: K, value: TokenDraft[K], field: keyof TokenErrors) => {
    setDraft((previous) => ({ ...previous, [key]: value }))
    setErrors(({ [field]: _changed, form: _form, ...others }) => others)
  }
  const toggle = <T,>(list: readonly T[], item: T, on: boolean): T[] =>
    on ? [...list.filter((other) => other !== item), item] : list.filter((other) => other !== item)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const checked = checkTokenDraft(organizer ? draft : { ...draft, events: 'all' }, new Date())
    if (!checked.ok) {
      setErrors(checked.errors)
      return
    }
    setBusy(true)
    setErrors({})
    try {
      const made = await createToken(checked.body)
      setDraft(emptyDraft)
      props.onCreated(made)
    } catch (error) {
      setErrors(tokenErrorsOf(fieldErrorsOf(error)))
      notify.error(tokenTexts.createFailed)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="card form api-tokens-form" onSubmit={submit} noValidate aria-busy={busy}>
      <h2>{tokenTexts.newHeading}</h2>
      <FormControl label={tokenTexts.name} error={errors.name} announce>
        {(control) => (
          <input
            {...control}
            type="text"
            maxLength={80}
            autoComplete="off"
            value={draft.name}
            disabled={busy}
            onChange={(input) => change('name', input.target.value, 'name')}
          />
        )}
      </FormControl>
      <p className="form-hint">{tokenTexts.nameHint}</p>
      <Choices legend={tokenTexts.scopes} error={errors.scopes}>
        {tokenScopes.map((scope) => (
          <Choice
            key={scope}
            label={scope}
            hint={scopeTexts[scope]}
            checked={draft.scopes.includes(scope)}
            disabled={busy}
            onChange={(on) => change('scopes', toggle<TokenScope>(draft.scopes, scope, on), 'scopes')}
          />
        ))}
      </Choices>
      {organizer ? (
        <Choices legend={tokenTexts.events} error={errors.eventIds}>
          {(['all', 'some'] as const).map((kind) => (
            <Choice
              key={kind}
              type="radio"
              name="api-token-events"
              label={kind === 'all' ? tokenTexts.allEvents : tokenTexts.someEvents}
              checked={draft.events === kind}
              disabled={busy}
              onChange={() => change('events', kind, 'eventIds')}
            />
          ))}
          {draft.events === 'some' && (
            <EventChoices
              events={events}
              chosen={draft.eventIds}
              disabled={busy}
              onChange={(id, on) => change('eventIds', toggle(draft.eventIds, id, on), 'eventIds')}
            />
          )}
        </Choices>
      ) : (
        <p className="form-hint">{tokenTexts.adminEvents}</p>
      )}
      <FormControl label={tokenTexts.expires} error={errors.expiresAt} announce>
        {(control) => (
          <input
            {...control}
            type="date"
            min={today}
            value={draft.expires}
            disabled={busy}
            onChange={(input) => change('expires', input.target.value, 'expiresAt')}
          />
        )}
      </FormControl>
      <p className="form-hint">{tokenTexts.expiresHint}</p>
      <FormError message={errors.form ?? null} />
      <div>
        <button type="submit" disabled={busy}>
          {busy ? tokenTexts.creating : tokenTexts.create}
        </button>
      </div>
    </form>
  )
}

/** the organizer's events to bind the token to */
function EventChoices(props: {
  events: UseQueryResult<EventView[]>
  chosen: string[]
  disabled: boolean
  onChange(id: string, on: boolean): void
}) {
  const { events } = props
  if (events.data === undefined)
    return events.isError ? (
      <FetchError message={tokenTexts.eventsFailed} />
    ) : (
      <p className="form-hint">{tokenTexts.eventsLoading}</p>
    )
  if (events.data.length === 0) return <p className="form-hint">{tokenTexts.noEvents}</p>
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
