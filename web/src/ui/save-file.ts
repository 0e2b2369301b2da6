// A file the app fetched itself (with the Bearer header a plain link cannot send) handed to the
// browser as a download.

/** a browser download of a blob under the given name */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  // the download has started from the URL; it may go once the click is handled
  setTimeout(() => URL.revokeObjectURL(url), 30_000)
}
