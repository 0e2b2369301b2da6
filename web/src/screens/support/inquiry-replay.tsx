// Admin support inbox (/inquiryreplay; SPEC §2, §4, §5, §8): every inquiry, newest first, with
// its asker, subject, text, status and reply. Reply (only while none exists) opens a dialog.
// Live: the admin's socket is in the 'admins' room, so an inquiry opened or answered anywhere
// refetches the list at once (and toasts), as does every (re)connection.
import { useState } from 'react'
import type { InquiryView } from '../../../../contracts/support.ts'
import { ApiError } from '../../api/client.ts'
import { fetchInquiries, replyToInquiry } from '../../api/support.ts'
import { useLiveConnected, useLiveFacts } from '../../live/use-live.ts'
import { Loading } from '../../ui/loading.tsx'
import { notify } from '../../ui/toasts.ts'
import { useLatestLoad } from '../../ui/use-latest-load.ts'
import { InquiryStatus, Moment } from './inquiry-status.tsx'
import { InquiryToasts } from './inquiry-toasts.tsx'
import { ReplyDialog } from './reply-dialog.tsx'
import './support.css'

const REPLY_FAILED = 'Failed to send the reply. Please try again.'

const inquiryFacts = new Set(['InquiryOpened', 'InquiryAnswered'])

type Replying = { inquiry: InquiryView; sending: boolean; error: string | null }

const answered = (inquiry: InquiryView) => inquiry.reply !== null || inquiry.status === 'Replied'

export function InquiryReplayScreen() {
  const { load, refetch, setValue } = useLatestLoad(fetchInquiries)
  const [replying, setReplying] = useState<Replying | null>(null)
  const live = useLiveConnected()

  useLiveFacts({
    onConnect: refetch,
    onFact(push) {
      if (inquiryFacts.has(push.type)) refetch()
    },
  })

  const send = async (inquiry: InquiryView, reply: string) => {
    setReplying({ inquiry, sending: true, error: null })
    try {
      const message = await replyToInquiry(inquiry._id, reply)
      // Shown at once; the refetch below brings the stored version.
      setValue((inquiries) =>
        inquiries.map((known) =>
          known._id === inquiry._id
            ? { ...known, status: 'Replied' as const, reply, repliedAt: new Date().toISOString() }
            : known,
        ),
      )
      setReplying(null)
      notify.successShort(message)
    } catch (failure) {
      notify.errorShort(REPLY_FAILED)
      // Answered meanwhile (by another admin): the dialog has nothing left to do.
      if (failure instanceof ApiError && failure.status === 409) setReplying(null)
      else setReplying({ inquiry, sending: false, error: REPLY_FAILED })
    } finally {
      refetch()
    }
  }

  if (load.state === 'loading') return <Loading message="Loading inquiries..." />
  return (
    <section className="page inquiry-replay" data-live={live ? 'connected' : 'offline'}>
      <InquiryToasts />
      <h1>Support Inquiries</h1>
      {load.state === 'failed' ? (
        <p className="error-text" role="alert">
          An error occurred while fetching data.
        </p>
      ) : load.value.length === 0 ? (
        <p className="empty-text">No inquiries yet.</p>
      ) : (
        <ul className="inquiry-list">
          {load.value.map((inquiry) => (
            <li key={inquiry._id}>
              <InquiryCard
                inquiry={inquiry}
                onReply={() => setReplying({ inquiry, sending: false, error: null })}
              />
            </li>
          ))}
        </ul>
      )}
      {replying && (
        <ReplyDialog
          key={replying.inquiry._id}
          inquiry={replying.inquiry}
          sending={replying.sending}
          error={replying.error}
          onSend={(reply) => void send(replying.inquiry, reply)}
          onCancel={() => setReplying(null)}
        />
      )}
    </section>
  )
}

function InquiryCard({ inquiry, onReply }: { inquiry: InquiryView; onReply(): void }) {
  const headingId = `inquiry-${inquiry._id}`
  return (
    <article className="card inquiry-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{inquiry.subject}</h2>
      <dl className="inquiry-facts">
        <dt>User:</dt>
        <dd>
          {inquiry.username || 'Unknown user'}
          {inquiry.email && <span className="inquiry-email"> ({inquiry.email})</span>}
        </dd>
        <dt>Received:</dt>
        <dd>
          <Moment at={inquiry.createdAt} />
        </dd>
        <dt>Inquiry:</dt>
        <dd className="inquiry-text">{inquiry.inquiry}</dd>
        <dt>Status:</dt>
        <dd>
          <InquiryStatus status={inquiry.status} />
        </dd>
        <dt>Reply:</dt>
        <dd className="inquiry-text">
          {inquiry.reply ?? <span className="inquiry-no-reply">No reply yet.</span>}
          {inquiry.repliedAt && (
            <span className="inquiry-replied-at">
              {' '}
              (<Moment at={inquiry.repliedAt} />)
            </span>
          )}
        </dd>
      </dl>
      {!answered(inquiry) && (
        <div className="inquiry-actions">
          <button type="button" onClick={onReply}>
            Reply
          </button>
        </div>
      )}
    </article>
  )
}
