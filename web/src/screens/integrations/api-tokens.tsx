// API tokens (/account/tokens, organizers and admins): a form that makes a token (name, scopes,
// events, expiry), checked with the server's own schema and showing what the server refuses at the
// field it names; the new token's secret shown once, until dismissed or the page is left; and the
// account's tokens with their last use, each revoked after a confirmation.
import { type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import { type TokenScope, tokenScopes } from '../../../../contracts/tokens.ts'
import { fetchMyEvents } from '../../api/catalog.ts'
import { fieldErrorsOf } from '../../api/field-errors.ts'
import { type CreatedToken, createToken, fetchTokens, revokeToken, type TokenView } from '../../api/tokens.ts'
import { useSession } from '../../session/use-session.ts'
import { FetchError, Fetched, messageOr } from '../../ui/fetched.tsx'
import { FormError } from '../../ui/field.tsx'
import { FormControl } from '../../ui/form-control.tsx'
import { notify } from '../../ui/toasts.ts'
import {
  checkTokenDraft,
  emptyDraft,
  eventsText,
  type TokenDraft,
  type TokenErrors,
  tokenErrorsOf,
  whenOrNever,
} from './token-form.ts'
import { scopeTexts, tokenTexts } from './token-texts.ts'
import './api-tokens.css'

const tokensKey = ['api-tokens'] as const
const myEventsKey = ['my-events'] as const

export function ApiTokensScreen() {
  const { user } = useSession()
  const organizer = user?.role === 'organizers'
  const queryClient = useQueryClient()
  const tokens = useQuery({ queryKey: tokensKey, queryFn: fetchTokens })
  // an admin's tokens cover every event: only an organizer picks some of theirs
  const events = useQuery({ queryKey: myEventsKey, queryFn: fetchMyEvents, enabled: organizer })
  const titles = useMemo(
    () => new Map((events.data ?? []).map((event) => [event._id, event.title] as const)),
    [events.data],
  )
  const [created, setCreated] = useState<CreatedToken | null>(null)

  const onCreated = (token: CreatedToken) => {
    setCreated(token)
    const { token: _secret, ...view } = token
    queryClient.setQueryData<TokenView[]>(tokensKey, (list) => [
      ...(list ?? []),
      { ...view, lastUsedAt: null, lastAddress: null },
    ])
    void queryClient.invalidateQueries({ queryKey: tokensKey })
  }

  return (
    <section className="page api-tokens-page">
      <header className="api-tokens-header">
        <h1>{tokenTexts.heading}</h1>
        <nav className="api-tokens-links" aria-label="Account">
          {organizer ? (
            <>
              <Link to="/organizers/dashboard">Dashboard</Link>
              <Link to="/organizer/billing">Billing</Link>
              <Link to="/organizer/invoices">Invoices</Link>
            </>
          ) : (
            <Link to="/admin/dashboard">Dashboard</Link>
          )}
        </nav>
      </header>
      <p className="form-hint">{tokenTexts.intro}</p>
      {created && <NewSecret token={created} onDismiss={() => setCreated(null)} />}
      <TokenForm organizer={organizer} events={events} onCreated={onCreated} />
      <h2 id="api-tokens-list">{tokenTexts.listHeading}</h2>
      <Fetched
        query={tokens}
        loading={<p className="empty-text">Loading...</p>}
        failed={messageOr(tokenTexts.loadFailed)}
        frame={(content) => content}
      >
        {(list) => <TokenTable tokens={list} titles={titles} />}
      </Fetched>
    </section>
  )
}

/** the new token's secret, this once: gone when dismissed or when the page is left */
function NewSecret({ token, onDismiss }: { token: CreatedToken; onDismiss(): void }) {
  const field = useRef<HTMLInputElement>(null)
  const headingId = useId()
  const noteId = useId()
  useEffect(() => {
    field.current?.focus()
    field.current?.select()
  }, [])

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token)
      notify.success(tokenTexts.copied)
    } catch {
      field.current?.select()
      notify.error(tokenTexts.copyFailed)
    }
  }

  return (
    <section className="card api-tokens-secret" aria-labelledby={headingId}>
      <h2 id={headingId}>{tokenTexts.secretHeading(token.name)}</h2>
      <p id={noteId} className="api-tokens-warning">
        {tokenTexts.secretNote}
      </p>
      <FormControl label={tokenTexts.secret}>
        {(control) => (
          <div className="api-tokens-copy">
            <input
              {...control}
              ref={field}
              type="text"
              readOnly
              value={token.token}
              spellCheck={false}
              autoComplete="off"
              aria-describedby={noteId}
              onFocus={(focus) => focus.target.select()}
            />
            <button type="button" onClick={() => void copy()}>
              {tokenTexts.copy}
            </button>
          </div>
        )}
      </FormControl>
      <button type="button" className="button-secondary" onClick={onDismiss}>
        {tokenTexts.dismiss}
      </button>
    </section>
  )
}

function TokenForm(props: {
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

/** a group of checkboxes or radios with its legend, and the message that concerns the group */
function Choices(props: { legend: string; error?: string | undefined; children: ReactNode }) {
  const errorId = useId()
  return (
    <fieldset
      className="api-tokens-choices"
      aria-invalid={props.error ? true : undefined}
      aria-describedby={props.error ? errorId : undefined}
    >
      <legend>{props.legend}</legend>
      {props.children}
      {props.error && (
        <p id={errorId} className="field-error" role="alert">
          {props.error}
        </p>
      )}
    </fieldset>
  )
}

function Choice(props: {
  label: string
  hint?: string
  type?: 'checkbox' | 'radio'
  name?: string
  checked: boolean
  disabled: boolean
  onChange(on: boolean): void
}) {
  const id = useId()
  const hintId = useId()
  return (
    <div className="api-tokens-choice">
      <input
        id={id}
        type={props.type ?? 'checkbox'}
        name={props.name}
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={props.hint ? hintId : undefined}
        onChange={(input) => props.onChange(input.target.checked)}
      />
      <label htmlFor={id}>{props.label}</label>
      {props.hint && (
        <span id={hintId} className="api-tokens-choice-hint">
          {props.hint}
        </span>
      )}
    </div>
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

function TokenTable({ tokens, titles }: { tokens: TokenView[]; titles: ReadonlyMap<string, string> }) {
  const queryClient = useQueryClient()
  const [asking, setAsking] = useState<string | null>(null)
  const [revoking, setRevoking] = useState<string | null>(null)

  const revoke = async (token: TokenView) => {
    setRevoking(token.id)
    try {
      notify.success(await revokeToken(token.id))
      queryClient.setQueryData<TokenView[]>(tokensKey, (list) => list?.filter((row) => row.id !== token.id))
      setAsking(null)
    } catch (error) {
      notify.error(messageOr(tokenTexts.revokeFailed)(error))
    } finally {
      setRevoking(null)
    }
  }

  if (tokens.length === 0) return <p className="empty-text">{tokenTexts.none}</p>
  const columns = tokenTexts.columns
  return (
    <div className="table-scroll">
      <table className="table-stack api-tokens-table" aria-labelledby="api-tokens-list">
        <thead>
          <tr>
            <th scope="col">{columns.name}</th>
            <th scope="col">{columns.scopes}</th>
            <th scope="col">{columns.events}</th>
            <th scope="col">{columns.expires}</th>
            <th scope="col">{columns.lastUsed}</th>
            <th scope="col">{columns.lastAddress}</th>
            <th scope="col">
              <span className="visually-hidden">{columns.actions}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id}>
              <td data-label={columns.name}>{token.name}</td>
              <td data-label={columns.scopes}>
                <ul className="api-tokens-scopes">
                  {token.scopes.map((scope) => (
                    <li key={scope}>
                      <code>{scope}</code>
                    </li>
                  ))}
                </ul>
              </td>
              <td data-label={columns.events}>{eventsText(token.eventIds, titles)}</td>
              <td data-label={columns.expires}>{whenOrNever(token.expiresAt)}</td>
              <td data-label={columns.lastUsed}>{whenOrNever(token.lastUsedAt)}</td>
              <td data-label={columns.lastAddress}>{token.lastAddress ?? tokenTexts.noAddress}</td>
              <td>
                {asking === token.id ? (
                  <RevokeConfirm
                    token={token}
                    busy={revoking === token.id}
                    onYes={() => void revoke(token)}
                    onKeep={() => setAsking(null)}
                  />
                ) : (
                  <button
                    type="button"
                    className="button-secondary"
                    aria-label={`${tokenTexts.revoke} ${token.name}`}
                    onClick={() => setAsking(token.id)}
                  >
                    {tokenTexts.revoke}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function RevokeConfirm(props: { token: TokenView; busy: boolean; onYes(): void; onKeep(): void }) {
  const yes = useRef<HTMLButtonElement>(null)
  useEffect(() => yes.current?.focus(), [])
  return (
    <div className="api-tokens-confirm">
      <p role="status">{tokenTexts.revokeQuestion(props.token.name)}</p>
      <div className="api-tokens-confirm-actions">
        <button ref={yes} type="button" className="button-danger" disabled={props.busy} onClick={props.onYes}>
          {props.busy ? tokenTexts.revoking : tokenTexts.revokeYes}
        </button>
        <button type="button" className="button-secondary" disabled={props.busy} onClick={props.onKeep}>
          {tokenTexts.keep}
        </button>
      </div>
    </div>
  )
}
