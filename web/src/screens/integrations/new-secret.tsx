// A new token's secret, shown this once in a read-only field with a Copy button: it is gone when
// dismissed or when the page is left (the server keeps only its hash).
import { useEffect, useId, useRef } from 'react'
import type { CreatedToken } from '../../api/tokens.ts'
import { FormControl } from '../../ui/form-control.tsx'
import { notify } from '../../ui/toasts.ts'
import { tokenTexts } from './token-texts.ts'

/** the new token's secret, this once: gone when dismissed or when the page is left */
export function NewSecret({ token, onDismiss }: { token: CreatedToken; onDismiss(): void }) {
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
