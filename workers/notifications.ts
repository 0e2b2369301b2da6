// Queue 'notifications': a notice about a session's times becomes one mail per attendee. Each mail
// is its own job keyed by notice and attendee, so a retried notice mails nobody twice.
import { UnrecoverableError } from 'bullmq'
import { accountQueries } from '../server/accounts/queries.ts'
import { bookingQueries } from '../server/booking/queries.ts'
import { catalogQueries } from '../server/catalog/queries.ts'
import type { Processor } from '../server/jobs/port.ts'
import type { Platform } from '../server/platform.ts'

/**
 * A session time as the organizer meant it: a local time without a zone (from a datetime-local
 * input) is the event's wall-clock time and is shown as written; a time with a zone is shown in
 * the app's time zone.
 */
const when = (iso: string, timeZone: string) => {
  const local = !/(Z|[+-]\d{2}:\d{2})$/.test(iso)
  return new Date(local ? `${iso}Z` : iso).toLocaleString('en-IN', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: local ? 'UTC' : timeZone,
  })
}

export function notificationsProcessor(platform: Pick<Platform, 'ledger' | 'jobs' | 'config'>): Processor {
  const { db } = platform.ledger
  const booking = bookingQueries(db)
  const accounts = accountQueries(db)
  const events = catalogQueries(db)
  return async (job) => {
    switch (job.name) {
      case 'announce': {
        const notice = job.data as {
          noticeId?: unknown
          eventId?: unknown
          startTime?: unknown
          endTime?: unknown
        }
        const { noticeId, eventId, startTime, endTime } = notice
        if (![noticeId, eventId, startTime, endTime].every((x) => typeof x === 'string')) {
          throw new UnrecoverableError(`malformed job ${job.id}`)
        }
        const event = events.byId(eventId as string)
        if (!event) throw new UnrecoverableError(`event ${eventId} does not exist`)
        const attendees = accounts.byIds(booking.attendeeIds(event.id))
        for (const person of attendees) {
          await platform.jobs.enqueue({
            queue: 'mail',
            name: 'send',
            jobId: `mail-notice-${noticeId}-${person.id}`,
            data: {
              to: person.email,
              subject: `Schedule for ${event.title}`,
              text: [
                `Hello ${person.username},`,
                '',
                `A session of ${event.title} is scheduled:`,
                `From: ${when(startTime as string, platform.config.timeZone)}`,
                `To: ${when(endTime as string, platform.config.timeZone)}`,
                '',
                `The whole schedule: ${platform.config.publicUrl}/schedule`,
              ].join('\n'),
            },
          })
        }
        return { mailed: attendees.length }
      }
      default:
        throw new UnrecoverableError(`unknown notifications job ${job.name}`)
    }
  }
}
