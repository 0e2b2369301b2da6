// given / when / then for the schedule decider: a session or a notice is its own stream, decided once.
import { describe, expect, it } from 'vitest'
import { DomainError } from '../../server/errors.ts'
import { fold } from '../../server/ledger/decider.ts'
import { type ScheduleCommand, scheduleDecider } from '../../server/schedule/decide.ts'
import type { ScheduleFact, ScheduleNoticePosted, SessionScheduled } from '../../server/schedule/facts.ts'

const given = (facts: ScheduleFact[]) => ({
  when: (command: ScheduleCommand) => {
    const run = () => scheduleDecider.decide(command, fold(scheduleDecider, facts))
    return {
      thenAppends: (expected: ScheduleFact[]) => expect(run()).toEqual(expected),
      thenRefuses: (kind: DomainError['kind'], message: string) => {
        let error: unknown
        try {
          run()
        } catch (caught) {
          error = caught
        }
        expect(error).toBeInstanceOf(DomainError)
        expect(error).toMatchObject({ kind, message })
        return error as DomainError
      },
    }
  },
})

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
  it('schedules a new session', () => given([]).when({ type: 'Schedule', session }).thenAppends([scheduled]))

  it('schedules a session across midnight and with a zone offset', () => {
    const late = { ...session, startTime: '2030-03-15T23:30', endTime: '2030-03-16T00:30' }
    given([])
      .when({ type: 'Schedule', session: late })
      .thenAppends([{ type: 'SessionScheduled', data: late }])
    const zoned = { ...session, startTime: '2030-03-15T10:00:00+05:30', endTime: '2030-03-15T05:00:00Z' }
    given([])
      .when({ type: 'Schedule', session: zoned })
      .thenAppends([{ type: 'SessionScheduled', data: zoned }])
  })

  it('refuses an end before the start, naming endTime', () => {
    const error = given([])
      .when({ type: 'Schedule', session: { ...session, endTime: '2030-03-15T09:59' } })
      .thenRefuses('invalid', 'The end time must be after the start time.')
    expect(error.details.issues).toEqual([
      { field: 'endTime', message: 'The end time must be after the start time.' },
    ])
  })

  it('refuses an end equal to the start', () =>
    given([])
      .when({ type: 'Schedule', session: { ...session, endTime: session.startTime } })
      .thenRefuses('invalid', 'The end time must be after the start time.'))

  it('refuses to schedule the same session twice', () =>
    given([scheduled]).when({ type: 'Schedule', session }).thenRefuses('conflict', 'This exists already.'))
})

describe('PostNotice', () => {
  it('posts a new notice', () => given([]).when({ type: 'PostNotice', notice }).thenAppends([posted]))

  it('refuses to post the same notice twice', () =>
    given([posted]).when({ type: 'PostNotice', notice }).thenRefuses('conflict', 'This exists already.'))
})
