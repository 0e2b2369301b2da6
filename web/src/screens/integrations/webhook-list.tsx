// The organizer's webhooks, one card each: URL, kinds, events, a Turned off badge with its day when
// it kept failing, Remove (asking first in the card itself), and its deliveries shown on demand.
import { useEffect, useId, useRef, useState } from 'react'
import { removeWebhook, type Webhook } from '../../api/webhooks.ts'
import { messageOr } from '../../ui/fetched.tsx'
import { notify } from '../../ui/toasts.ts'
import { eventsText } from './token-form.ts'
import { WebhookDeliveries } from './webhook-deliveries.tsx'
import { turnedOffText } from './webhook-form.ts'
import { webhookTexts } from './webhook-texts.ts'

export function WebhookList(props: {
  webhooks: Webhook[]
  titles: ReadonlyMap<string, string>
  /** the list's heading: it names the list, and takes the focus when a removed card goes */
  headingId: string
  onRemoved(id: string): void
}) {
  const { webhooks, titles } = props
  if (webhooks.length === 0) return <p className="empty-text">{webhookTexts.none}</p>
  return (
    <ul className="webhooks-list" aria-labelledby={props.headingId}>
      {webhooks.map((webhook) => (
        <li key={webhook.id}>
          <WebhookCard
            webhook={webhook}
            titles={titles}
            onRemoved={() => {
              props.onRemoved(webhook.id)
              document.getElementById(props.headingId)?.focus()
            }}
          />
        </li>
      ))}
    </ul>
  )
}

function WebhookCard(props: { webhook: Webhook; titles: ReadonlyMap<string, string>; onRemoved(): void }) {
  const { webhook } = props
  const [asking, setAsking] = useState(false)
  const [removing, setRemoving] = useState(false)
  const [open, setOpen] = useState(false)
  const headingId = useId()
  const deliveriesId = useId()
  const off = turnedOffText(webhook.disabledAt)

  const remove = async () => {
    setRemoving(true)
    try {
      notify.success(await removeWebhook(webhook.id))
      props.onRemoved()
    } catch (error) {
      notify.error(messageOr(webhookTexts.removeFailed)(error))
      setRemoving(false)
    }
  }

  return (
    <article className="card webhooks-card" aria-labelledby={headingId}>
      <header className="webhooks-card-header">
        <h3 id={headingId} className="webhooks-url">
          {webhook.url}
        </h3>
        {off && <span className="webhooks-badge">{off}</span>}
      </header>
      {off && <p className="form-hint">{webhookTexts.turnedOffNote}</p>}
      <dl className="webhooks-facts">
        <div>
          <dt>{webhookTexts.eventsLabel}</dt>
          <dd>
            <ul className="api-tokens-scopes">
              {webhook.events.map((kind) => (
                <li key={kind}>
                  <code>{kind}</code>
                </li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt>{webhookTexts.scopeLabel}</dt>
          <dd>{eventsText(webhook.eventIds, props.titles)}</dd>
        </div>
      </dl>
      <div className="webhooks-actions">
        <button
          type="button"
          className="button-secondary"
          aria-expanded={open}
          aria-controls={open ? deliveriesId : undefined}
          onClick={() => setOpen(!open)}
        >
          {open ? webhookTexts.hideDeliveries : webhookTexts.deliveries}
        </button>
        {asking ? (
          <RemoveConfirm
            url={webhook.url}
            busy={removing}
            onYes={() => void remove()}
            onKeep={() => setAsking(false)}
          />
        ) : (
          <button
            type="button"
            className="button-secondary"
            aria-label={`${webhookTexts.remove} ${webhook.url}`}
            onClick={() => setAsking(true)}
          >
            {webhookTexts.remove}
          </button>
        )}
      </div>
      {open && <WebhookDeliveries id={deliveriesId} webhook={webhook} />}
    </article>
  )
}

function RemoveConfirm(props: { url: string; busy: boolean; onYes(): void; onKeep(): void }) {
  const yes = useRef<HTMLButtonElement>(null)
  useEffect(() => yes.current?.focus(), [])
  return (
    <div className="api-tokens-confirm">
      <p role="status">{webhookTexts.removeQuestion(props.url)}</p>
      <div className="api-tokens-confirm-actions">
        <button ref={yes} type="button" className="button-danger" disabled={props.busy} onClick={props.onYes}>
          {props.busy ? webhookTexts.removing : webhookTexts.removeYes}
        </button>
        <button type="button" className="button-secondary" disabled={props.busy} onClick={props.onKeep}>
          {webhookTexts.keep}
        </button>
      </div>
    </div>
  )
}
