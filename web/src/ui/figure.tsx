// A labelled figure: an <output>, so it is found by its label and its changes are announced.
import { useId } from 'react'

export function Figure({ label, value }: { label: string; value: string | number }) {
  const id = useId()
  return (
    <div className="figure">
      <label htmlFor={id}>{label}</label>
      <output id={id}>{value}</output>
    </div>
  )
}
