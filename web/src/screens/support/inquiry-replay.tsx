// Admin support inbox (/inquiryreplay; SPEC §2, §4, §5, §8): every inquiry, newest first, with
// its asker, subject, text, status and reply, a page at a time (Show more inquiries brings the
// next). Reply (only while none exists) opens a dialog.
// Live: the admin's socket is in the 'admins' room, so an inquiry opened or answered anywhere
// fetches the list again at once (live/follow.ts; the app frame toasts it), as does every
// (re)connection.
import { type InfiniteData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { InquiryView } from '../../../../contracts/support.ts'
import { ApiError } from '../../api/client.ts'
import { inquiriesQuery, keys } from '../../api/queries.ts'
import { replyToInquiry } from '../../api/support.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { Fetched } from '../../ui/fetched.tsx'
import { Loading } from '../../ui/loading.tsx'
import { notify } from '../../ui/toasts.ts'
import { InquiryStatus, Moment } from './inquiry-status.tsx'
import { ReplyDialog } from './reply-dialog.tsx'
import './support.css'

const REPLY_FAILED = 'Failed to send the reply. Please try again.'

type Replying = { inquiry: InquiryView; sending: boolean; error: string | null }

const answered = (inquiry: InquiryView) => inquiry.reply !== null || inquiry.status === 'Replied'

export function InquiryReplayScreen() {
  const queryClient = useQueryClient()
  const inquiries = useInfiniteQuery(inquiriesQuery())
  const [replying, setReplying] = useState<Replying | null>(null)
  const live = useLiveConnected()

  const reply = useMutation({
    mutationFn: ({ inquiry, text }: { inquiry: InquiryView; text: string }) =>
      replyToInquiry(inquiry._id, text),
    onMutate: ({ inquiry }) => setReplying({ inquiry, sending: true, error: null }),
    onSuccess: (message, { inquiry, text }) => {
      // Shown at once; the refetch below brings the stored version.
      queryClient.setQueryData<InfiniteData<InquiryView[], number>>(inquiriesQuery().queryKey, (known) =>
        known
          ? {
              ...known,
              pages: known.pages.map((page) =>
                page.map((one) =>
                  one._id === inquiry._id
                    ? { ...one, status: 'Replied' as const, reply: text, repliedAt: new Date().toISOString() }
                    : one,
                ),
              ),
            }
          : known,
      )
      setReplying(null)
      notify.successShort(message)
    },
    onError: (failure, { inquiry }) => {
      notify.errorShort(REPLY_FAILED)
      // Answered meanwhile (by another admin): the dialog has nothing left to do.
      if (failure instanceof ApiError && failure.status === 409) setReplying(null)
      else setReplying({ inquiry, sending: false, error: REPLY_FAILED })
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.inquiries }),
  })

  return (
    <Fetched
      query={inquiries}
      loading={<Loading message="Loading inquiries..." />}
      failed="An error occurred while fetching data."
      frame={(content) => (
        <section className="page inquiry-replay" data-live={live ? 'connected' : 'offline'}>
          <h1>Support Inquiries</h1>
          {content}
          {replying && (
            <ReplyDialog
              key={replying.inquiry._id}
              inquiry={replying.inquiry}
              sending={replying.sending}
              error={replying.error}
              onSend={(text) => reply.mutate({ inquiry: replying.inquiry, text })}
              onCancel={() => setReplying(null)}
            />
          )}
        </section>
      )}
    >
      {({ pages }) => {
        // a refetch after a new inquiry moves one across a page's edge: shown once
        const list = [...new Map(pages.flat().map((inquiry) => [inquiry._id, inquiry])).values()]
        return list.length === 0 ? (
          <p className="empty-text">No inquiries yet.</p>
        ) : (
          <>
            <ul className="inquiry-list">
              {list.map((inquiry) => (
                <li key={inquiry._id}>
                  <InquiryCard
                    inquiry={inquiry}
                    onReply={() => setReplying({ inquiry, sending: false, error: null })}
                  />
                </li>
              ))}
            </ul>
            {inquiries.hasNextPage && (
              <div className="inquiry-more">
                <button
                  type="button"
                  disabled={inquiries.isFetchingNextPage}
                  onClick={() => inquiries.fetchNextPage()}
                >
                  {inquiries.isFetchingNextPage ? 'Loading more inquiries...' : 'Show more inquiries'}
                </button>
              </div>
            )}
          </>
        )
      }}
    </Fetched>
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
