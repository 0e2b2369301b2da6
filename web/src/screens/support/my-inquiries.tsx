// The user's own inquiries on their dashboard: subject, status and the admin's reply, fetched
// again when one of them is answered (the user's room) and on every (re)connection
// (live/follow.ts).
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId } from 'react'
import { myInquiriesQuery } from '../../api/queries.ts'
import { Fetched } from '../../ui/fetched.tsx'
import { InquiryStatus, Moment } from './inquiry-status.tsx'
import './support.css'

export function MyInquiries() {
  const inquiries = useQuery(myInquiriesQuery())
  const headingId = useId()

  return (
    <section className="my-inquiries" aria-labelledby={headingId}>
      <header className="my-inquiries-header">
        <h2 id={headingId}>My Inquiries</h2>
        <Link to="/inquiryform" className="button button-secondary">
          Inquiry Form
        </Link>
      </header>
      <Fetched
        query={inquiries}
        loading={
          <p className="empty-text" role="status">
            Loading...
          </p>
        }
        failed="An error occurred while fetching data."
        frame={(content) => content}
      >
        {(list) =>
          list.length === 0 ? (
            <p className="empty-text">You haven't sent any inquiries yet.</p>
          ) : (
            <ul className="inquiry-list">
              {list.map((inquiry) => (
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
          )
        }
      </Fetched>
    </section>
  )
}
