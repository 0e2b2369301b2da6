// A form checked with the server's own valibot schema before it is sent: the schema's first
// issue is shown, a second submit while one is under way is ignored, and a failed send shows
// what `failed` makes of it (and the form can be sent again).
import { type FormEvent, useState } from 'react'
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

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const checked = v.safeParse(schema, options.read(new FormData(event.currentTarget)))
    if (!checked.success) {
      setError(checked.issues[0]?.message ?? options.invalid)
      return
    }
    setBusy(true)
    setError(null)
    try {
      await options.send(checked.output)
    } catch (failure) {
      setError(options.failed(failure))
      setBusy(false)
    }
  }
  return { busy, error, submit }
}

/** A form field's text ('' when missing). */
export const textOf = (form: FormData, name: string) => String(form.get(name) ?? '')
