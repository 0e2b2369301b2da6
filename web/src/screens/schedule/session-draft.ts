// The add-session form's draft and its check against the same schema the server applies
// (contracts/schedule.ts), so the form and the server speak with the same messages.
import * as v from 'valibot'
import { ScheduleBody } from '../../../../contracts/schedule.ts'

export type Speaker = { name: string; bio: string }

/** a speaker on the form, with a key of its own for the list (never sent) */
export type ListedSpeaker = Speaker & { key: number }

export type SessionDraft = {
  sessionTitle: string
  description: string
  startTime: string
  endTime: string
  location: string
  speakers: ListedSpeaker[]
}

/** messages by field: 'sessionTitle', 'endTime', 'speakers.0.name'…; 'session' for the form itself */
export type FieldErrors = Record<string, string>

export const emptyDraft = (): SessionDraft => ({
  sessionTitle: '',
  description: '',
  startTime: '',
  endTime: '',
  location: '',
  speakers: [],
})

export function checkSession(
  eventId: string,
  draft: SessionDraft,
): { ok: true; session: ScheduleBody } | { ok: false; errors: FieldErrors } {
  const session: ScheduleBody = {
    eventId,
    ...draft,
    speakers: draft.speakers.map(({ name, bio }) => ({ name, bio })),
  }
  const checked = v.safeParse(ScheduleBody, session)
  if (checked.success) return { ok: true, session }
  const errors: FieldErrors = {}
  for (const issue of checked.issues) errors[v.getDotPath(issue) ?? 'session'] ??= issue.message
  return { ok: false, errors }
}

/** A speaker may be added only with both a name and a bio (SPEC §5). */
export const speakerComplete = (speaker: Speaker): boolean =>
  speaker.name.trim() !== '' && speaker.bio.trim() !== ''
