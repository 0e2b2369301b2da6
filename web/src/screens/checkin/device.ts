// This device's name at the door, kept in localStorage: the server tells the scans of two devices
// apart by it (and a scan sent again by device, code and scannedAt), so it must outlive the page.
export const DEVICE_KEY = 'checkin-device'

type DeviceStorage = Pick<Storage, 'getItem' | 'setItem'>

const newDevice = () =>
  `door-${globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`}`

/** the device id kept, or a new one (kept from now on; for this page only when storage fails) */
export function deviceId(storage: DeviceStorage | undefined = globalThis.localStorage): string {
  try {
    const kept = storage?.getItem(DEVICE_KEY)
    if (kept && kept.length <= 100) return kept
  } catch {
    // private mode: a device for this page
  }
  const made = newDevice()
  try {
    storage?.setItem(DEVICE_KEY, made)
  } catch {
    // kept for this page only
  }
  return made
}
