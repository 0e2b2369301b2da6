// A <dialog> shown as a modal while the component is mounted (the page behind is inert) and
// closed when it unmounts.
import { useEffect, useRef } from 'react'

export function useModal() {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
    return () => element?.close()
  }, [])
  return dialog
}
