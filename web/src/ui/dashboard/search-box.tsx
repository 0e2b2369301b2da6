// A search box for a long list: what is typed is asked for once typing pauses, not at each key.
import { useEffect, useId, useState } from 'react'

const PAUSE_MS = 300

export function SearchBox({
  label,
  placeholder,
  onSearch,
}: {
  label: string
  placeholder?: string
  /** the words to look for ('' for everything), once typing pauses */
  onSearch: (words: string) => void
}) {
  const id = useId()
  const [typed, setTyped] = useState('')
  useEffect(() => {
    const asked = setTimeout(() => onSearch(typed.trim()), PAUSE_MS)
    return () => clearTimeout(asked)
  }, [typed, onSearch])
  return (
    <div className="field search-box">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="search"
        value={typed}
        placeholder={placeholder}
        maxLength={200}
        onChange={(change) => setTyped(change.target.value)}
      />
    </div>
  )
}
