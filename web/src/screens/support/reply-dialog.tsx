// The admin's reply to one inquiry: a modal dialog named after the inquiry, with the question
// for reference, a required Reply and Send / Cancel. Escape cancels unless a reply is on its way.
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import * as v from 'valibot'
import { type InquiryView, ReplyBody } from '../../../../contracts/support.ts'
import { FormError, TextAreaField } from '../../ui/field.tsx'

type ReplyDialogProps = {
  inquiry: InquiryView
  sending: boolean
  /** why the last attempt failed, shown in the dialog */
  error: string | null
  onSend(reply: string): void
  onCancel(): void
}

export function ReplyDialog({ inquiry, sending, error, onSend, onCancel }: ReplyDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const [missing, setMissing] = useState<string | null>(null)

  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
    return () => element?.close()
  }, [])

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (sending) return
    const reply = String(new FormData(event.currentTarget).get('reply') ?? '')
    const checked = v.safeParse(ReplyBody, { inquiryId: inquiry._id, reply })
    if (!checked.success) {
      setMissing(v.flatten<typeof ReplyBody>(checked.issues).nested?.reply?.[0] ?? 'Reply is required.')
      return
    }
    setMissing(null)
    onSend(checked.output.reply)
  }

  return (
    <dialog
      ref={dialog}
      className="reply-dialog"
      aria-labelledby={titleId}
      aria-busy={sending}
      onCancel={(event) => {
        event.preventDefault()
        if (!sending) onCancel()
      }}
    >
      <form className="reply-form" onSubmit={submit} noValidate>
        <header className="reply-dialog-header">
          <h2 id={titleId}>Reply to “{inquiry.subject}”</h2>
          <p>
            From {inquiry.username || 'a user'}
            {inquiry.email && ` (${inquiry.email})`}
          </p>
        </header>
        <blockquote className="reply-dialog-question">{inquiry.inquiry}</blockquote>
        <TextAreaField
          label="Reply"
          name="reply"
          maxLength={5000}
          required
          autoFocus
          disabled={sending}
          error={missing}
        />
        <FormError message={error} />
        <div className="reply-dialog-actions">
          <button type="submit" disabled={sending}>
            {sending ? 'Sending...' : 'Send Reply'}
          </button>
          <button type="button" className="button-secondary" onClick={onCancel} disabled={sending}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  )
}
