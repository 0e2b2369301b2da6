// A labelled control of the event form with the message that concerns it (from the form's own
// check or the server's issues), tied to it for assistive technology.
import { type ReactNode, useId } from 'react'

export type ControlProps = { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }

export function FormControl({
  label,
  error,
  children,
}: {
  label: string
  error?: string | undefined
  children: (control: ControlProps) => ReactNode
}) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': Boolean(error), ...(error ? { 'aria-describedby': errorId } : {}) })}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  )
}
