// Draws ticket passes as QR code images (PNG) for the mail, in a worker thread of its own
// (pass-images.ts): drawing is CPU work of a few milliseconds an image, which on the app's event
// loop would hold up the requests of a sale or of a door. Plain JavaScript, so the thread needs no
// TypeScript loader, whoever started the app (node --import tsx, vitest).
import QRCode from 'qrcode'

/** the image options: 4 pixels a module, grey, each row filtered against the one above (a QR's rows
 * repeat 4 times), which PNG packs into ~2 kB; the adaptive filter search cost 3× the time */
const OPTIONS = {
  type: 'png',
  errorCorrectionLevel: 'M',
  margin: 4,
  scale: 4,
  rendererOpts: { filterType: 2, colorType: 0 },
}

/** @param {{ codes: string[] }} task @returns {Promise<Uint8Array[]>} */
export default async function draw({ codes }) {
  const images = []
  for (const code of codes) images.push(new Uint8Array(await QRCode.toBuffer(code, OPTIONS)))
  return images
}
