// Tells an attendee who is online that a session was scheduled for an event they hold tickets to
// (ScheduleNoticePosted), or that the event moved or was called off (EventEdited, TicketCancelled:
// issue 17), each pushed to their own room. Renders nothing; meant to be mounted once for the whole
// app. A notice is toasted once however many listeners hear it.
import type { HolderNoticePush, NoticePush } from '../../../../contracts/live.ts'
import { useLiveFacts } from '../../live/use-live.ts'
import { formatEventWhenIn, formatInstant } from '../../ui/format.ts'
import { toastify } from '../../ui/toasts.ts'
import { useEventZone } from '../../ui/use-site.ts'

const when = (time: string) => formatInstant(time)

export const noticeText = (notice: NoticePush): string =>
  `New session for ${notice.eventTitle || 'your event'}: ${when(notice.startTime)} – ${when(notice.endTime)}`

/** `timeZone`: the zone events are written in, for the new time's label */
export const holderNoticeText = (notice: HolderNoticePush, timeZone?: string): string =>
  notice.change === 'cancelled'
    ? `${notice.eventTitle} has been cancelled${notice.reason ? `: ${notice.reason}` : ''}. Your payment will be refunded.`
    : `${notice.eventTitle} has changed: now ${formatEventWhenIn(notice.date, notice.time, timeZone)}, ${notice.location}.`

export function ScheduleNoticeListener() {
  const zone = useEventZone()
  useLiveFacts((push) => {
    if ((push.type === 'EventEdited' || push.type === 'TicketCancelled') && 'change' in push.data) {
      const notice = push.data
      // one toast for a holder of several tickets cancelled with their event
      const toastId =
        notice.change === 'cancelled'
          ? `event-cancelled-${notice.eventId}`
          : `event-${notice.eventId}-${push.position}`
      void toastify().then(({ toast }) => toast.warning(holderNoticeText(notice, zone), { toastId }))
      return
    }
    if (push.type === 'WaitlistOffered' && 'offer' in push.data && push.data.offer) {
      const { offer, eventId } = push.data
      void toastify().then(({ toast }) =>
        toast.success(
          `${offer.quantity} × ${offer.ticketType} for ${offer.eventTitle} held for you until ${formatInstant(offer.offerUntil)}: book them now.`,
          { toastId: `offer-${eventId}-${push.position}` },
        ),
      )
      return
    }
    if (push.type !== 'ScheduleNoticePosted') return
    // the same id twice is one toast (react-toastify drops the second)
    void toastify().then(({ toast }) =>
      toast.info(noticeText(push.data), { toastId: `notice-${push.data.noticeId}` }),
    )
  })
  return null
}
