// given / when / then for the schedule decider: a session or a notice is its own stream, decided once.
import { describe, it } from 'vitest'
import { scheduleDecider } from '../../server/schedule/decide.ts'
import type { ScheduleNoticePosted, SessionScheduled } from '../../server/schedule/facts.ts'
import { deciderSpec } from '../support/decider-spec.ts'

const { given } = deciderSpec(scheduleDecider)

const session: SessionScheduled['data'] = {
  sessionId: 's1',
  eventId: 'e1',
  organizerId: 'o1',
  sessionTitle: 'Opening Keynote',
  description: 'Why live music matters.',
  startTime: '2030-03-15T10:00',
  endTime: '2030-03-15T11:30',
  speakers: [{ name: 'Anoushka Rao', bio: 'Sitar player.' }],
  location: 'Main Stage',
}
const scheduled: SessionScheduled = { type: 'SessionScheduled', data: session }
const notice: ScheduleNoticePosted['data'] = {
  noticeId: 'n1',
  eventId: 'e1',
  organizerId: 'o1',
  startTime: '2030-03-15T10:00',
  endTime: '2030-03-15T11:30',
}
const posted: ScheduleNoticePosted = { type: 'ScheduleNoticePosted', data: notice }

describe('Schedule', () => {
  it('schedules a new session', () => given([]).when({ type: 'Schedule', session }).then([scheduled]))

  it('schedules a session across midnight and with a zone offset', () => {
    const late = { ...session, startTime: '2030-03-15T23:30', endTime: '2030-03-16T00:30' }
    given([])
      .when({ type: 'Schedule', session: late })
      .then([{ type: 'SessionScheduled', data: late }])
    const zoned = { ...session, startTime: '2030-03-15T10:00:00+05:30', endTime: '2030-03-15T05:00:00Z' }
    given([])
      .when({ type: 'Schedule', session: zoned })
      .then([{ type: 'SessionScheduled', data: zoned }])
  })

  it('refuses an end before the start, naming endTime', () =>
    given([])
      .when({ type: 'Schedule', session: { ...session, endTime: '2030-03-15T09:59' } })
      .thenRefuses('invalid', 'The end time must be after the start time.', {
        issues: [{ field: 'endTime', message: 'The end time must be after the start time.' }],
      }))

  it('refuses an end equal to the start', () =>
    given([])
      .when({ type: 'Schedule', session: { ...session, endTime: session.startTime } })
      .thenRefuses('invalid', 'The end time must be after the start time.'))

  it('refuses to schedule the same session twice', () =>
    given([scheduled]).when({ type: 'Schedule', session }).thenRefuses('conflict', 'This exists already.'))
})

describe('PostNotice', () => {
  it('posts a new notice', () => given([]).when({ type: 'PostNotice', notice }).then([posted]))

  it('refuses to post the same notice twice', () =>
    given([posted]).when({ type: 'PostNotice', notice }).thenRefuses('conflict', 'This exists already.'))
})
