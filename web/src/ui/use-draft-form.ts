// A form kept as a draft of texts, checked by the server's own schema on submit (api/field-errors.ts's
// checkedBody), each message shown at the field it names until that field changes, and what the
// server refuses shown the same way (fieldErrorsOf). A second submit while one is under way is
// ignored. The billing profile and booking fee forms.
import { type FormEvent, useState } from 'react'
import { fieldErrorsOf } from '../api/field-errors.ts'
import { notify } from './toasts.ts'

type Checked<B> = { ok: true; body: B } | { ok: false; errors: Record<string, string> }

export function useDraftForm<D extends Record<string, string>, B, R>(options: {
  /** the draft the form starts from */
  initial: () => D
  /** the draft as the body to send, or a message per field */
  check: (draft: D) => Checked<B>
  /** sends the body: the server's reply */
  save: (body: B) => Promise<R>
  /** what follows a save (the cache, a toast): the draft as saved */
  saved: (reply: R) => D | Promise<D>
  /** the toast of a failed save */
  failed: string
}) {
  const [draft, setDraft] = useState<D>(options.initial)
  const [errors, setErrors] = useState<Partial<Record<keyof D | 'form', string>>>({})
  const [busy, setBusy] = useState(false)

  const set = (field: keyof D, value: string) => {
    setDraft((previous) => ({ ...previous, [field]: value }))
    setErrors(({ [field]: _changed, form: _form, ...others }) => others as typeof errors)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const checked = options.check(draft)
    if (!checked.ok) {
      setErrors(checked.errors as typeof errors)
      return
    }
    setBusy(true)
    setErrors({})
    try {
      setDraft(await options.saved(await options.save(checked.body)))
    } catch (error) {
      setErrors(fieldErrorsOf(error) as typeof errors)
      notify.error(options.failed)
    } finally {
      setBusy(false)
    }
  }
  return { draft, set, errors, busy, submit }
}
