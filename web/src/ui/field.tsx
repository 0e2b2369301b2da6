// A labelled form input: the label names the input (so it can be found by its label).
import { type InputHTMLAttributes, useId } from 'react'

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & { label: string }

export function Field({ label, ...input }: FieldProps) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} />
    </div>
  )
}

/** the form's error, read out when it appears */
export function FormError({ message }: { message: string | null }) {
  return message ? (
    <p className="form-error" role="alert">
      {message}
    </p>
  ) : null
}
