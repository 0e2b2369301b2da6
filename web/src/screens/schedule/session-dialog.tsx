// A calendar entry opened: the session's time, speakers (name and bio), description and location in
// a modal dialog named by the session's title; closed with its button, Escape, or a click outside.
import { useId } from 'react'
import type { SessionView } from '../../../../contracts/schedule.ts'
import { useModal } from '../../ui/use-modal.ts'
import { sessionWhen } from './session-when.ts'

export function SessionDialog({ session, onClose }: { session: SessionView; onClose: () => void }) {
  // A modal: the page behind is inert, and Escape ends in `close` (or `cancel`).
  const dialog = useModal()
  const titleId = useId()

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop; Escape and the button close it from the keyboard
    <dialog
      ref={dialog}
      className="session-dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(e) => {
        if (e.target === e.currentTarget) e.currentTarget.close() // the backdrop, not the content
      }}
    >
      <div className="session-dialog-body">
        <h2 id={titleId}>{session.sessionTitle}</h2>
        <p className="session-dialog-event">{session.eventTitle}</p>
        <dl className="session-dialog-facts">
          <dt>Time:</dt>
          <dd>{sessionWhen(session.startTime, session.endTime)}</dd>
          {session.location && (
            <>
              <dt>Location:</dt>
              <dd>{session.location}</dd>
            </>
          )}
        </dl>
        {session.description && <p className="session-dialog-description">{session.description}</p>}
        {session.speakers.length > 0 && (
          <section aria-labelledby={`${titleId}-speakers`}>
            <h3 id={`${titleId}-speakers`}>Speakers</h3>
            <ul className="session-dialog-speakers">
              {session.speakers.map((speaker, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: speakers have no id and never reorder here
                <li key={index}>
                  <strong>{speaker.name}</strong>
                  <p>{speaker.bio}</p>
                </li>
              ))}
            </ul>
          </section>
        )}
        <button type="button" className="button-secondary" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  )
}
