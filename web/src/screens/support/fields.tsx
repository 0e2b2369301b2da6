// Labelled inputs that carry their own validation message (found by label, read out when shown).
import { type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from 'react'

type Described = { label: string; error?: string | null }

function FieldFrame({
  id,
  label,
  error,
  children,
}: {
  id: string
  label: string
  error?: string | null
  children: ReactNode
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <p id={`${id}-error`} className="form-error field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}

const describedBy = (id: string, error?: string | null) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : undefined,
})

export function TextField({
  label,
  error,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & Described) {
  const id = useId()
  return (
    <FieldFrame id={id} label={label} error={error}>
      <input id={id} {...describedBy(id, error)} {...input} />
    </FieldFrame>
  )
}

export function TextAreaField({
  label,
  error,
  ...textarea
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & Described) {
  const id = useId()
  return (
    <FieldFrame id={id} label={label} error={error}>
      <textarea id={id} rows={5} {...describedBy(id, error)} {...textarea} />
    </FieldFrame>
  )
}
