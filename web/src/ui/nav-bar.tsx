// The top navigation bar (SPEC §2): brand, desktop menu, and a hamburger menu on small screens
// with its own differences (Home goes to /, no Schedule, the event form link is /EventForm).
import { Link } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import type { Role } from '../../../contracts/accounts.ts'
import { useSession } from '../session/use-session.ts'

type MenuLink = { to: string; label: string }

const roleLinks = (role: Role | undefined, mobile: boolean): MenuLink[] => {
  switch (role) {
    case 'organizers':
      return [
        { to: mobile ? '/EventForm' : '/eventform', label: 'EventForm' },
        { to: '/organizers/dashboard', label: 'Dashboard' },
      ]
    case 'user':
      return [
        { to: '/dashboard', label: 'Dashboard' },
        { to: '/inquiryform', label: 'Inquiry Form' },
      ]
    case 'admin':
      return [
        { to: '/admin/dashboard', label: 'Dashboard' },
        { to: '/createorganizer', label: 'Create Organizer' },
        { to: '/inquiryreplay', label: 'Inquiry Replay' },
      ]
    default:
      return []
  }
}

function menuOf(role: Role | undefined, signedIn: boolean, mobile: boolean): MenuLink[] {
  const account: MenuLink[] = signedIn
    ? [{ to: '/profile', label: 'Profile' }]
    : [
        { to: '/login', label: 'Login' },
        { to: '/signup', label: 'Sign Up' },
      ]
  const common: MenuLink[] = mobile
    ? [
        { to: '/', label: 'Home' },
        { to: '/search', label: 'Search' },
      ]
    : [
        { to: '/home', label: 'Home' },
        { to: '/search', label: 'Search' },
        { to: '/schedule', label: 'Schedule' },
      ]
  return [...common, ...roleLinks(role, mobile), ...account]
}

export function NavBar() {
  const { user, token } = useSession()
  const [open, setOpen] = useState(false)
  const role = user?.role
  const signedIn = user !== null
  // While a stored token is being checked (a slow profile call) the account is not known yet:
  // no Login / Sign Up links that would vanish a moment later.
  const checking = token !== null && user === null
  const menu = (mobile: boolean) =>
    menuOf(role, signedIn, mobile).filter(
      (link) => !checking || (link.to !== '/login' && link.to !== '/signup'),
    )

  const toggle = useRef<HTMLButtonElement>(null)
  // Escape closes the open menu, the focus back on its button (as a menu button's does)
  useEffect(() => {
    if (!open) return
    const onKey = (key: KeyboardEvent) => {
      if (key.key !== 'Escape') return
      setOpen(false)
      toggle.current?.focus()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])
  return (
    <header className="nav-bar">
      <nav aria-label="Main">
        <Link to="/home" className="brand" onClick={() => setOpen(false)}>
          Event Management
        </Link>
        <ul className="menu-desktop">
          {menu(false).map((link) => (
            <li key={link.to}>
              <Link to={link.to} activeProps={{ className: 'active' }} activeOptions={{ exact: true }}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        <button
          ref={toggle}
          type="button"
          className="menu-toggle"
          aria-label="Toggle menu"
          aria-expanded={open}
          aria-controls="menu-mobile"
          onClick={() => setOpen((wasOpen) => !wasOpen)}
        >
          <span aria-hidden="true" />
          <span aria-hidden="true" />
          <span aria-hidden="true" />
        </button>
      </nav>
      {open && (
        <ul id="menu-mobile" className="menu-mobile">
          {menu(true).map((link) => (
            <li key={link.to}>
              <Link to={link.to} onClick={() => setOpen(false)}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </header>
  )
}
