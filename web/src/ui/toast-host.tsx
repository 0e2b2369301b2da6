// Where toasts show: react-toastify's container, loaded and mounted once the first toast is asked
// for (ui/toasts.ts), so pages without toasts carry none of its code.
import { lazy, Suspense, useSyncExternalStore } from 'react'
import { onToastsWanted, TOAST_DEFAULT_MS, toastify, toastsWanted } from './toasts.ts'

const ToastContainer = lazy(() => toastify().then((m) => ({ default: m.ToastContainer })))

export function ToastHost() {
  const wanted = useSyncExternalStore(onToastsWanted, toastsWanted, toastsWanted)
  if (!wanted) return null
  return (
    <Suspense fallback={null}>
      <ToastContainer position="top-right" autoClose={TOAST_DEFAULT_MS} newestOnTop />
    </Suspense>
  )
}
