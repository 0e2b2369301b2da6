// A form checked with the server's own valibot schema before it is sent: the schema's first
// issue is shown, a second submit while one is under way is ignored, and a failed send shows
// what `failed` makes of it (and the form can be sent again).
import { type FormEvent, useId, useRef, useState } from 'react'
import * as v from 'valibot'
import { ApiError } from '../api/client.ts'

/** The server's message for a refusal (4xx with a message), else the fallback. */
export const refusalOr = (failure: unknown, fallback: string) =>
  failure instanceof ApiError && failure.isRefusal ? failure.message : fallback

export function useCheckedForm<S extends v.GenericSchema>(
  schema: S,
  options: {
    /** the form's fields, as the schema takes them */
    read: (form: FormData) => v.InferInput<S>
    /** shown when the input is refused without a message of the schema's */
    invalid: string
    /** sends the checked input; what follows a success (toast, navigation) happens here */
    send: (input: v.InferOutput<S>) => Promise<void>
    /** the message shown for a failed send (a toast, if any, is raised here) */
    failed: (failure: unknown) => string
  },
) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  /** the message's id (FormError's), which the field it is about is described by */
  const errorId = useId()
  const marked = useRef<{ field: HTMLElement; describedBy: string | null } | null>(null)

  /** the field a refusal is about said invalid, described by the message, and focused */
  const mark = (field: HTMLElement | null) => {
    const last = marked.current
    if (last) {
      last.field.removeAttribute('aria-invalid')
      if (last.describedBy === null) last.field.removeAttribute('aria-describedby')
      else last.field.setAttribute('aria-describedby', last.describedBy)
      marked.current = null
    }
    if (!field) return
    const describedBy = field.getAttribute('aria-describedby')
    marked.current = { field, describedBy }
    field.setAttribute('aria-invalid', 'true')
    field.setAttribute('aria-describedby', describedBy ? `${errorId} ${describedBy}` : errorId)
    field.focus()
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const form = event.currentTarget
    const checked = v.safeParse(schema, options.read(new FormData(form)))
    if (!checked.success) {
      const issue = checked.issues[0]
      setError(issue?.message ?? options.invalid)
      const name = issue ? v.getDotPath(issue) : null
      const field = name ? form.elements.namedItem(name) : null
      mark(field instanceof HTMLElement ? field : null)
      return
    }
    mark(null)
    setBusy(true)
    setError(null)
    try {
      await options.send(checked.output)
    } catch (failure) {
      setError(options.failed(failure))
      setBusy(false)
    }
  }
  return { busy, error, errorId, submit }
}

/** A form field's text ('' when missing). */
export const textOf = (form: FormData, name: string) => String(form.get(name) ?? '')
