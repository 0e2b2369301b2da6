// The labelled inputs of forms checked on submit (found by their label, their message read out
// when it appears), and the form's own message.
import type { InputHTMLAttributes, TextareaHTMLAttributes } from 'react'
import { FormControl } from './form-control.tsx'

type Described = { label: string; error?: string | null }

export function Field({
  label,
  error,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & Described) {
  return (
    <FormControl label={label} error={error} announce>
      {(control) => <input {...control} {...input} />}
    </FormControl>
  )
}

export function TextAreaField({
  label,
  error,
  ...textarea
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & Described) {
  return (
    <FormControl label={label} error={error} announce>
      {(control) => <textarea {...control} rows={5} {...textarea} />}
    </FormControl>
  )
}

/** the form's error, read out when it appears */
export function FormError({ message, id }: { message: string | null; id?: string }) {
  return message ? (
    <p id={id} className="form-error" role="alert">
      {message}
    </p>
  ) : null
}
