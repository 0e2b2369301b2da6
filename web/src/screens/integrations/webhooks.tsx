// Webhooks (/account/webhooks, organizers; the address mailed to an owner whose endpoint was turned
// off): a form that adds an endpoint (URL, kinds, events), checked with the server's own schema and
// showing what the server refuses at the field it names; the new endpoint's signing secret shown
// once, until dismissed or the page is left; and the organizer's endpoints, each with its
// deliveries (sent again on request) and removed after a confirmation.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useMemo, useState } from 'react'
import { fetchMyEvents } from '../../api/catalog.ts'
import { type CreatedWebhook, fetchWebhooks, type Webhook } from '../../api/webhooks.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { NewWebhookForm } from './new-webhook-form.tsx'
import { webhooksKey } from './webhook-form.ts'
import { WebhookList } from './webhook-list.tsx'
import { WebhookSecret } from './webhook-secret.tsx'
import { webhookTexts } from './webhook-texts.ts'
import './api-tokens.css'
import './webhooks.css'

const myEventsKey = ['my-events'] as const
const LIST_HEADING = 'webhooks-list'

export function WebhooksScreen() {
  const queryClient = useQueryClient()
  const webhooks = useQuery({ queryKey: webhooksKey, queryFn: fetchWebhooks })
  const events = useQuery({ queryKey: myEventsKey, queryFn: fetchMyEvents })
  const titles = useMemo(
    () => new Map((events.data ?? []).map((event) => [event._id, event.title] as const)),
    [events.data],
  )
  const [created, setCreated] = useState<CreatedWebhook | null>(null)

  const onCreated = (webhook: CreatedWebhook) => {
    setCreated(webhook)
    const { secret: _secret, ...view } = webhook
    queryClient.setQueryData<Webhook[]>(webhooksKey, (list) => [
      ...(list ?? []),
      { ...view, disabledAt: null },
    ])
    void queryClient.invalidateQueries({ queryKey: webhooksKey })
  }

  return (
    <section className="page api-tokens-page">
      <header className="api-tokens-header">
        <h1>{webhookTexts.heading}</h1>
        <nav className="api-tokens-links" aria-label="Account">
          <Link to="/organizers/dashboard">Dashboard</Link>
          <Link to="/organizer/billing">Billing</Link>
          <Link to="/organizer/invoices">Invoices</Link>
          <Link to="/account/tokens">API tokens</Link>
        </nav>
      </header>
      <p className="form-hint">{webhookTexts.intro}</p>
      {created && <WebhookSecret webhook={created} onDismiss={() => setCreated(null)} />}
      <NewWebhookForm events={events} onCreated={onCreated} />
      <h2 id={LIST_HEADING} tabIndex={-1}>
        {webhookTexts.listHeading}
      </h2>
      <Fetched
        query={webhooks}
        loading={<p className="empty-text">Loading...</p>}
        failed={messageOr(webhookTexts.loadFailed)}
        frame={(content) => content}
      >
        {(list) => (
          <WebhookList
            webhooks={list}
            titles={titles}
            headingId={LIST_HEADING}
            onRemoved={(id) =>
              queryClient.setQueryData<Webhook[]>(webhooksKey, (rows) => rows?.filter((row) => row.id !== id))
            }
          />
        )}
      </Fetched>
    </section>
  )
}
