// Queue 'notifications': a notice about a session's times becomes one mail per attendee. Each mail
// is its own job keyed by notice and attendee, so a retried notice mails nobody twice.
import { UnrecoverableError } from 'bullmq'
import type { AccountQueries } from '../server/accounts/queries.ts'
import { movedMail } from '../server/booking/mails.ts'
import type { BookingQueries } from '../server/booking/queries.ts'
import type { CatalogQueries } from '../server/catalog/queries.ts'
import type { Config } from '../server/config.ts'
import { handlers, job, jobIds } from '../server/jobs/catalogue.ts'
import type { Jobs, Processor } from '../server/jobs/port.ts'

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

export type NotificationsParts = {
  jobs: Jobs
  config: Pick<Config, 'timeZone' | 'publicUrl'>
  booking: Pick<BookingQueries, 'attendeeIds'>
  accounts: Pick<AccountQueries, 'byIds'>
  events: Pick<CatalogQueries, 'byId'>
}

export function notificationsProcessor(parts: NotificationsParts): Processor {
  const { jobs, config, booking, accounts, events } = parts
  return handlers('notifications')({
    async announce({ noticeId, eventId, startTime, endTime }) {
      const event = await events.byId(eventId)
      if (!event) throw new UnrecoverableError(`event ${eventId} does not exist`)
      const attendees = await accounts.byIds(await booking.attendeeIds(event.id))
      for (const person of attendees) {
        const text = [
          `Hello ${person.username},`,
          '',
          `A session of ${event.title} is scheduled:`,
          `From: ${when(startTime, config.timeZone)}`,
          `To: ${when(endTime, config.timeZone)}`,
          '',
          `The whole schedule: ${config.publicUrl}/schedule`,
        ].join('\n')
        await jobs.enqueue(
          job(
            'mail.send',
            { to: person.email, subject: `Schedule for ${event.title}`, text },
            { jobId: jobIds.noticeMail(noticeId, person.id) },
          ),
        )
      }
      return { mailed: attendees.length }
    },
    async moved({ eventId, position, was }) {
      const event = await events.byId(eventId)
      if (!event) throw new UnrecoverableError(`event ${eventId} does not exist`)
      const holders = await accounts.byIds(await booking.attendeeIds(event.id))
      for (const person of holders) {
        await jobs.enqueue(
          job('mail.send', movedMail(config.publicUrl, event, was, person), {
            jobId: jobIds.movedMail(position, person.id),
          }),
        )
      }
      return { mailed: holders.length }
    },
  })
}
