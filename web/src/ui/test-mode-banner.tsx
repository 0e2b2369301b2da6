// On every page while payments go through the built-in test gateway: nobody should think they paid.
import { TEST_MODE_BANNER } from '../../../contracts/site.ts'
import { useSite } from './use-site.ts'

export function TestModeBanner() {
  const site = useSite()
  if (!site?.testPayments) return null
  return (
    <div className="test-mode-banner" role="status">
      {TEST_MODE_BANNER}
    </div>
  )
}
