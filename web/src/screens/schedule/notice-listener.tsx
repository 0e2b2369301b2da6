// Tells an attendee who is online that a session was scheduled for an event they hold tickets to
// (ScheduleNoticePosted, pushed to their own room). Renders nothing; meant to be mounted once for
// the whole app. A notice is toasted once however many listeners hear it.
import type { NoticePush } from '../../../../contracts/live.ts'
import { useLiveFacts } from '../../live/use-live.ts'
import { formatInstant } from '../../ui/format.ts'
import { toastify } from '../../ui/toasts.ts'

const when = (time: string) => formatInstant(time)

export const noticeText = (notice: NoticePush): string =>
  `New session for ${notice.eventTitle || 'your event'}: ${when(notice.startTime)} – ${when(notice.endTime)}`

export function ScheduleNoticeListener() {
  useLiveFacts((push) => {
    if (push.type !== 'ScheduleNoticePosted') return
    // the same id twice is one toast (react-toastify drops the second)
    void toastify().then(({ toast }) =>
      toast.info(noticeText(push.data), { toastId: `notice-${push.data.noticeId}` }),
    )
  })
  return null
}
