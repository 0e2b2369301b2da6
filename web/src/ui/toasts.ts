// Toast timing (SPEC §4): 5000 ms by default; 3000 ms on the account-admin and password screens
// and on the session, inquiry and status screens.
//
// react-toastify loads with the first toast, not with every page: a visitor who never sees one
// never downloads it. The host (ui/toast-host.tsx) mounts its container once it is asked for;
// toasts made before that wait in react-toastify's own queue and show when it mounts.
import type { ToastOptions } from 'react-toastify'
import { retryImport } from './retry-import.ts'

export const TOAST_DEFAULT_MS = 5000
export const TOAST_SHORT_MS = 3000

type Toastify = typeof import('react-toastify')
let loading: Promise<Toastify> | null = null
const wanted = new Set<() => void>()

/** react-toastify, loaded on first use; asking for it also mounts the container */
export function toastify(): Promise<Toastify> {
  if (!loading) {
    loading = retryImport(() => import('react-toastify'))
    for (const listener of wanted) listener()
  }
  return loading
}

/** for the host: whether toasts were asked for yet, and a subscription to when they are */
export const toastsWanted = () => loading !== null
export const onToastsWanted = (listener: () => void) => {
  wanted.add(listener)
  return () => {
    wanted.delete(listener)
  }
}

const short: ToastOptions = { autoClose: TOAST_SHORT_MS }
const show = (kind: 'success' | 'error' | 'info', message: string, options?: ToastOptions) =>
  void toastify().then(({ toast }) => toast[kind](message, options))

export const notify = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
  /** the 3000 ms toasts */
  successShort: (message: string) => show('success', message, short),
  errorShort: (message: string) => show('error', message, short),
}
