// Toast timing (SPEC §4): 5000 ms by default; 3000 ms on the account-admin and password screens
// and on the session, inquiry and status screens.
import { type ToastOptions, toast } from 'react-toastify'

export const TOAST_DEFAULT_MS = 5000
export const TOAST_SHORT_MS = 3000

const short: ToastOptions = { autoClose: TOAST_SHORT_MS }

export const notify = {
  success: (message: string) => toast.success(message),
  error: (message: string) => toast.error(message),
  info: (message: string) => toast.info(message),
  /** the 3000 ms toasts */
  successShort: (message: string) => toast.success(message, short),
  errorShort: (message: string) => toast.error(message, short),
}
