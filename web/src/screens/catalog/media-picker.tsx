// Upload Images / Upload Videos: a multiple file input and a preview of each chosen file. Each
// chosen file's first bytes are read in the browser before anything is sent: a file that is not
// an image (PNG, JPEG, GIF, WebP, AVIF) or a video (MP4, WebM, Ogg, QuickTime) is refused at once,
// with the server's own wording, next to the picker. The server checks the bytes again. The
// previews' object URLs are revoked when the choice changes and when the form goes away.
import { useEffect, useRef, useState } from 'react'
import { FormControl } from '../../ui/form-control.tsx'

export type MediaKind = 'image' | 'video'

const described: Record<MediaKind, string> = {
  image: 'an image (JPEG, PNG, GIF, WebP or AVIF)',
  video: 'a video (MP4, WebM, Ogg or QuickTime)',
}

/** how many leading bytes the check reads */
const HEAD = 64

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length))

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  signature.every((byte, i) => bytes[at + i] === byte)

/** the brands of an ISO base media file's leading ftyp box (major first), or none */
function ftypBrands(bytes: Uint8Array): string[] {
  if (bytes.length < 12 || ascii(bytes, 4, 4) !== 'ftyp') return []
  const size = Math.min(
    ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0),
    bytes.length,
  )
  const brands = [ascii(bytes, 8, 4)]
  for (let at = 16; at + 4 <= size; at += 4) brands.push(ascii(bytes, at, 4))
  return brands
}

const imageBrands = ['avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'crx ']
const audioBrands = ['M4A ', 'M4B ', 'M4P ', 'F4A ', 'F4B ']

/** Whether these leading bytes open a file of this kind (by its magic number, not its name or type). */
export function looksLike(kind: MediaKind, bytes: Uint8Array): boolean {
  const brands = ftypBrands(bytes)
  if (kind === 'image') {
    return (
      startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) || // PNG
      startsWith(bytes, [0xff, 0xd8, 0xff]) || // JPEG
      ascii(bytes, 0, 6) === 'GIF87a' ||
      ascii(bytes, 0, 6) === 'GIF89a' ||
      (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') ||
      brands.some((brand) => brand === 'avif' || brand === 'avis') // AVIF
    )
  }
  const major = brands[0]
  return (
    // MP4 or QuickTime: an ftyp box whose major brand is not an image's or a sound's
    (major !== undefined && !imageBrands.includes(major) && !audioBrands.includes(major)) ||
    // QuickTime without ftyp: a movie atom first
    ['moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].includes(ascii(bytes, 4, 4)) ||
    // WebM: an EBML header whose DocType is webm
    (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3]) && ascii(bytes, 0, bytes.length).includes('webm')) ||
    ascii(bytes, 0, 4) === 'OggS' // Ogg
  )
}

/** The message for the first chosen file that is not of this kind, or null when all are. */
export async function refusalOf(kind: MediaKind, files: File[]): Promise<string | null> {
  for (const file of files) {
    const name = JSON.stringify(file.name.slice(0, 80))
    let head: Uint8Array
    try {
      head = new Uint8Array(await file.slice(0, HEAD).arrayBuffer())
    } catch {
      return `${name} could not be read.`
    }
    if (!looksLike(kind, head)) return `${name} is not ${described[kind]}.`
  }
  return null
}

function Previews({ files, kind }: { files: File[]; kind: MediaKind }) {
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

/**
 * The picker. A choice with a file of the wrong kind is refused whole: `onChange` gets no files
 * and the message (shown here as `error` by the form), until a good choice replaces it.
 */
export function MediaPicker({
  label,
  kind,
  files,
  error,
  disabled,
  onChange,
}: {
  label: string
  kind: MediaKind
  files: File[]
  error?: string | undefined
  disabled: boolean
  onChange: (files: File[], refusal: string | null) => void
}) {
  const picks = useRef(0)
  const choose = async (chosen: File[]) => {
    const pick = ++picks.current
    const refusal = await refusalOf(kind, chosen)
    if (pick !== picks.current) return // a later choice replaced this one while its bytes were read
    onChange(refusal ? [] : chosen, refusal)
  }
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
            onChange={(e) => void choose(Array.from(e.target.files ?? []))}
          />
        )}
      </FormControl>
      <Previews files={files} kind={kind} />
    </div>
  )
}
