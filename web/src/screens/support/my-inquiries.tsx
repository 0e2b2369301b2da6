// The user's own inquiries on their dashboard: subject, status and the admin's reply, fetched
// again when one of them is answered (the user's room) and on every (re)connection.
import { Link } from '@tanstack/react-router'
import { useId } from 'react'
import { fetchMyInquiries } from '../../api/support.ts'
import { useLiveFacts } from '../../live/use-live.ts'
import { useLatestLoad } from '../../ui/use-latest-load.ts'
import { InquiryStatus, Moment } from './inquiry-status.tsx'
import { InquiryToasts } from './inquiry-toasts.tsx'
import './support.css'

const inquiryFacts = new Set(['InquiryOpened', 'InquiryAnswered'])

export function MyInquiries() {
  const { load, refetch } = useLatestLoad(fetchMyInquiries)
  const headingId = useId()

  useLiveFacts({
    onConnect: refetch,
    onFact(push) {
      if (inquiryFacts.has(push.type)) refetch()
    },
  })

  return (
    <section className="my-inquiries" aria-labelledby={headingId}>
      <InquiryToasts />
      <header className="my-inquiries-header">
        <h2 id={headingId}>My Inquiries</h2>
        <Link to="/inquiryform" className="button button-secondary">
          Inquiry Form
        </Link>
      </header>
      {load.state === 'loading' ? (
        <p className="empty-text" role="status">
          Loading...
        </p>
      ) : load.state === 'failed' ? (
        <p className="error-text" role="alert">
          An error occurred while fetching data.
        </p>
      ) : load.value.length === 0 ? (
        <p className="empty-text">You haven't sent any inquiries yet.</p>
      ) : (
        <ul className="inquiry-list">
          {load.value.map((inquiry) => (
            <li key={inquiry._id}>
              <article className="card inquiry-card" aria-labelledby={`my-inquiry-${inquiry._id}`}>
                <h3 id={`my-inquiry-${inquiry._id}`}>{inquiry.subject}</h3>
                <dl className="inquiry-facts">
                  <dt>Sent:</dt>
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
                  </dd>
                </dl>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
