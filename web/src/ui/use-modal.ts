// A <dialog> shown as a modal while the component is mounted (the page behind is inert) and
// closed when it unmounts. The focus goes back to what had it when the dialog opened (its button),
// once that can take it: the dialog is taken out of the page before it is closed, so the browser's
// own return of the focus finds nothing, and a keyboard or screen reader user was left on the body.
import { useEffect, useRef } from 'react'
import { focusWhenAble } from './focus.ts'

/** the element that last had the focus: a button disabled while its work runs loses it, and is
 * still the one the dialog it opened goes back to */
let lastFocused: HTMLElement | null = null
// followed from when the page's code that may open a dialog is loaded, before any button opens one
if (typeof document !== 'undefined')
  document.addEventListener('focusin', (event) => {
    if (event.target instanceof HTMLElement && !event.target.closest('dialog')) lastFocused = event.target
  })

export function useModal() {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    const active = document.activeElement
    const opener = active instanceof HTMLElement && active !== document.body ? active : lastFocused
    if (element && !element.open) element.showModal()
    return () => {
      element?.close()
      // once it can take it (its button enabled again after the work it waited for), unless the page
      // moved the focus meanwhile
      focusWhenAble(() => opener)
    }
  }, [])
  return dialog
}
