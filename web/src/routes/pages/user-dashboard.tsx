// The user dashboard page: the booking area's dashboard with the support area's inquiries below the
// tickets. Two areas meet here, on the route, so that neither screen imports the other's folder.
import { DashboardScreen } from '../../screens/booking/dashboard.tsx'
import { MyInquiries } from '../../screens/support/my-inquiries.tsx'

export function UserDashboardPage() {
  return <DashboardScreen inquiries={<MyInquiries />} />
}
