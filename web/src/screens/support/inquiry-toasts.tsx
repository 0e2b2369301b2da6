// Toasts for inquiries as they happen (3000 ms, SPEC §4): admins hear of every new inquiry, a user
// hears that one of theirs was answered. Renders nothing; the app frame mounts it once (mounting it
// in several places at once would be harmless: each fact is toasted once).

import type { FactPush } from '../../../../contracts/live.ts'
import { useLiveFacts } from '../../live/use-live.ts'
import { useSession } from '../../session/use-session.ts'
import { TOAST_SHORT_MS, toastify } from '../../ui/toasts.ts'

/** positions already toasted, shared by every mounted listener */
const toasted = new Set<number>()

function once(push: FactPush, show: (toast: Toast) => void) {
  if (toasted.has(push.position)) return
  if (toasted.size > 500) toasted.clear()
  toasted.add(push.position)
  void toastify().then(({ toast }) => show(toast))
}

type Toast = Awaited<ReturnType<typeof toastify>>['toast']

const newInquiryText = (subject: string | undefined) =>
  subject ? `New inquiry: “${subject}”` : 'New inquiry received.'

export function InquiryToasts() {
  const { user } = useSession()
  useLiveFacts((push) => {
    if (push.type === 'InquiryOpened' && user?.role === 'admin') {
      once(push, (toast) =>
        toast.info(newInquiryText(push.data.subject), {
          autoClose: TOAST_SHORT_MS,
          toastId: `fact-${push.position}`,
        }),
      )
    } else if (push.type === 'InquiryAnswered' && user?.role === 'user' && push.data.userId === user._id) {
      once(push, (toast) =>
        toast.success('An admin has replied to your inquiry.', {
          autoClose: TOAST_SHORT_MS,
          toastId: `fact-${push.position}`,
        }),
      )
    }
  })
  return null
}
