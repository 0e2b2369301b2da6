// A new webhook's signing secret, shown this once in a read-only field with a Copy button: it is
// gone when dismissed or when the page is left (the server derives it and never lists it).
import { useEffect, useId, useRef } from 'react'
import type { CreatedWebhook } from '../../api/webhooks.ts'
import { FormControl } from '../../ui/form-control.tsx'
import { notify } from '../../ui/toasts.ts'
import { webhookTexts } from './webhook-texts.ts'

export function WebhookSecret({ webhook, onDismiss }: { webhook: CreatedWebhook; onDismiss(): void }) {
  const field = useRef<HTMLInputElement>(null)
  const headingId = useId()
  const noteId = useId()
  useEffect(() => {
    field.current?.focus()
    field.current?.select()
  }, [])

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(webhook.secret)
      notify.success(webhookTexts.copied)
    } catch {
      field.current?.select()
      notify.error(webhookTexts.copyFailed)
    }
  }

  return (
    <section className="card api-tokens-secret" aria-labelledby={headingId}>
      <h2 id={headingId} className="webhooks-url">
        {webhookTexts.secretHeading(webhook.url)}
      </h2>
      <p id={noteId} className="api-tokens-warning">
        {webhookTexts.secretNote}
      </p>
      <FormControl label={webhookTexts.secret}>
        {(control) => (
          <div className="api-tokens-copy">
            <input
              {...control}
              ref={field}
              type="text"
              readOnly
              value={webhook.secret}
              spellCheck={false}
              autoComplete="off"
              aria-describedby={noteId}
              onFocus={(focus) => focus.target.select()}
            />
            <button type="button" onClick={() => void copy()}>
              {webhookTexts.copy}
            </button>
          </div>
        )}
      </FormControl>
      <button type="button" className="button-secondary" onClick={onDismiss}>
        {webhookTexts.dismiss}
      </button>
    </section>
  )
}
