// The landing page: what the product offers, and two ways into the event listing.
import { Link } from '@tanstack/react-router'

const features = [
  {
    title: 'Easy booking',
    text: 'Find an event, pick your ticket type and book it in a few clicks.',
  },
  {
    title: 'Secure payments',
    text: 'Pay by card through a trusted payment provider, in rupees (₹).',
  },
  {
    title: 'Real-time updates',
    text: 'Ticket availability and event news reach you live, without reloading.',
  },
]

export function LandingScreen() {
  return (
    <section className="landing">
      <div className="hero">
        <h1>Discover events worth attending</h1>
        <p>Concerts, conferences, workshops and more: browse what is on and get your tickets today.</p>
        <div className="hero-actions">
          <Link to="/home" className="button">
            Explore Events
          </Link>
          <Link to="/home" className="button button-secondary">
            Get Started
          </Link>
        </div>
      </div>
      <ul className="features">
        {features.map((feature) => (
          <li key={feature.title} className="card">
            <h2>{feature.title}</h2>
            <p>{feature.text}</p>
          </li>
        ))}
      </ul>
    </section>
  )
}
