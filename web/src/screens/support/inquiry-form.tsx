// Support inquiry form (/inquiryform, role user; SPEC §2, §5, §8): Subject and Inquiry, both
// required. The outcome is the server's message or 'Failed to submit the inquiry.', red when it
// speaks of failure and green otherwise; on success the message is toasted and the user goes to /.
import { Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import * as v from 'valibot'
import { InquiryBody } from '../../../../contracts/support.ts'
import { ApiError } from '../../api/client.ts'
import { submitInquiry } from '../../api/support.ts'
import { Field, TextAreaField } from '../../ui/field.tsx'
import { notify } from '../../ui/toasts.ts'
import './support.css'

const FAILED = 'Failed to submit the inquiry.'

type FieldErrors = { subject?: string; inquiry?: string }

/** SPEC §8: the colour follows the words, red whenever they speak of failure */
const soundsLikeFailure = (text: string) => /failed/i.test(text)

function fieldErrorsOf(issues: { field: string; message: string }[]): FieldErrors {
  const errors: FieldErrors = {}
  for (const { field, message } of issues) {
    if ((field === 'subject' || field === 'inquiry') && !errors[field]) errors[field] = message
  }
  return errors
}

export function InquiryFormScreen() {
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [outcome, setOutcome] = useState<string | null>(null)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const form = new FormData(event.currentTarget)
    const checked = v.safeParse(InquiryBody, {
      subject: String(form.get('subject') ?? ''),
      inquiry: String(form.get('inquiry') ?? ''),
    })
    setOutcome(null)
    if (!checked.success) {
      const nested = v.flatten<typeof InquiryBody>(checked.issues).nested ?? {}
      setErrors({ subject: nested.subject?.[0], inquiry: nested.inquiry?.[0] })
      return
    }
    setErrors({})
    setBusy(true)
    try {
      const { message } = await submitInquiry(checked.output)
      setOutcome(message)
      notify.successShort(message)
      await navigate({ to: '/' })
    } catch (failure) {
      const refusal = failure instanceof ApiError && failure.isRefusal ? failure : null
      if (refusal) setErrors(fieldErrorsOf(refusal.issues))
      // The server's words follow ours, so the message reads (and shows) as a failure.
      const text = refusal && !soundsLikeFailure(refusal.message) ? `${FAILED} ${refusal.message}` : FAILED
      setOutcome(text)
      notify.errorShort(FAILED)
      setBusy(false)
    }
  }

  return (
    <section className="page form-page">
      <form className="card form inquiry-form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Support Inquiry</h1>
        <p className="form-hint">Ask us anything about your bookings or an event; an admin replies here.</p>
        <Field
          label="Subject"
          name="subject"
          autoComplete="off"
          maxLength={200}
          required
          error={errors.subject}
        />
        <TextAreaField label="Inquiry" name="inquiry" maxLength={5000} required error={errors.inquiry} />
        {outcome && (
          <p
            className={
              soundsLikeFailure(outcome) ? 'inquiry-outcome outcome-failed' : 'inquiry-outcome outcome-ok'
            }
            role={soundsLikeFailure(outcome) ? 'alert' : 'status'}
          >
            {outcome}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Submitting...' : 'Submit Inquiry'}
        </button>
        <p className="form-links">
          <Link to="/dashboard">See your inquiries and replies</Link>
        </p>
      </form>
    </section>
  )
}
