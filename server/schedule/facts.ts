export type SessionScheduled = {
  type: 'SessionScheduled'
  data: {
    sessionId: string
    eventId: string
    organizerId: string
    sessionTitle: string
    description: string
    startTime: string
    endTime: string
    speakers: Array<{ name: string; bio: string }>
    location: string
  }
}

/** An organizer told the event's attendees about a session's times (mail + live notice). */
export type ScheduleNoticePosted = {
  type: 'ScheduleNoticePosted'
  data: { noticeId: string; eventId: string; organizerId: string; startTime: string; endTime: string }
}

export type ScheduleFact = SessionScheduled | ScheduleNoticePosted
