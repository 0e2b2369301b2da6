// Upload Images / Upload Videos: a multiple file input and a preview of each chosen file. The
// previews' object URLs are revoked when the choice changes and when the form goes away.
import { useEffect, useState } from 'react'
import { FormControl } from './form-control.tsx'

type Kind = 'image' | 'video'

function Previews({ files, kind }: { files: File[]; kind: Kind }) {
  const [urls, setUrls] = useState<string[]>([])

  useEffect(() => {
    const made = files.map((file) => URL.createObjectURL(file))
    setUrls(made)
    return () => {
      for (const url of made) URL.revokeObjectURL(url)
    }
  }, [files])

  if (urls.length === 0) return null
  return (
    <ul className="media-previews">
      {urls.map((url, index) => {
        const name = files[index]?.name ?? ''
        return (
          <li key={url}>
            {kind === 'image' ? (
              <img src={url} alt={`Preview of ${name}`} />
            ) : (
              <video src={url} muted controls preload="metadata" aria-label={`Preview of ${name}`} />
            )}
          </li>
        )
      })}
    </ul>
  )
}

export function MediaPicker({
  label,
  kind,
  files,
  error,
  disabled,
  onChange,
}: {
  label: string
  kind: Kind
  files: File[]
  error?: string | undefined
  disabled: boolean
  onChange: (files: File[]) => void
}) {
  return (
    <div className="media-picker">
      <FormControl label={label} error={error}>
        {(control) => (
          <input
            {...control}
            type="file"
            multiple
            accept={kind === 'image' ? 'image/*' : 'video/*'}
            disabled={disabled}
            onChange={(e) => onChange(Array.from(e.target.files ?? []))}
          />
        )}
      </FormControl>
      <Previews files={files} kind={kind} />
    </div>
  )
}
