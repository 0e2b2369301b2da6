// Pure decisions for sessions and notices (each its own stream, decided once).
import { conflict, invalid } from '../errors.ts'
import type { Decider } from '../ledger/decider.ts'
import type { ScheduleFact, ScheduleNoticePosted, SessionScheduled } from './facts.ts'

export type ScheduleCommand =
  | { type: 'Schedule'; session: SessionScheduled['data'] }
  | { type: 'PostNotice'; notice: ScheduleNoticePosted['data'] }

export const scheduleDecider: Decider<{ exists: boolean }, ScheduleCommand, ScheduleFact> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide(command, state) {
    if (state.exists) throw conflict('This exists already.')
    switch (command.type) {
      case 'Schedule': {
        const s = command.session
        if (Date.parse(s.endTime) <= Date.parse(s.startTime)) {
          throw invalid('The end time must be after the start time.', [
            { field: 'endTime', message: 'The end time must be after the start time.' },
          ])
        }
        return [{ type: 'SessionScheduled', data: s }]
      }
      case 'PostNotice':
        return [{ type: 'ScheduleNoticePosted', data: command.notice }]
      default:
        return command satisfies never
    }
  },
}
