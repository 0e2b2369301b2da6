// A camera for Chromium's fake capture device (--use-file-for-fake-video-capture): a Y4M video
// that shows a QR code for a while, then nothing for a while, looped by Chromium. The QR is made
// by the same library the ticket page draws passes with (qrcode), from the text given.
import { writeFileSync } from 'node:fs'
import QRCode from 'qrcode'

const WIDTH = 480
const HEIGHT = 360
const FPS = 10
/** the QR code's light and dark, as luma (Y) values of BT.601's video range */
const LIGHT = 235
const DARK = 16
/** the white margin around the code, in modules (QR asks for 4) */
const QUIET_MODULES = 4

/** one frame's luma plane: the code centred, or a blank page when `text` is null */
function lumaOf(text: string | null): Buffer {
  const luma = Buffer.alloc(WIDTH * HEIGHT, LIGHT)
  if (text === null) return luma
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
  const scale = Math.floor(Math.min(WIDTH, HEIGHT) / (modules.size + 2 * QUIET_MODULES))
  if (scale < 2) throw new Error(`a code of ${modules.size} modules does not fit in ${WIDTH}×${HEIGHT}`)
  const left = Math.floor((WIDTH - modules.size * scale) / 2)
  const top = Math.floor((HEIGHT - modules.size * scale) / 2)
  for (let row = 0; row < modules.size; row++)
    for (let column = 0; column < modules.size; column++) {
      if (!modules.get(row, column)) continue
      for (let y = 0; y < scale; y++) {
        const start = (top + row * scale + y) * WIDTH + left + column * scale
        luma.fill(DARK, start, start + scale)
      }
    }
  return luma
}

/**
 * Writes to `path` a video of `text`'s QR code shown for `shownSeconds`, then a blank page for
 * `hiddenSeconds` (long enough for a scanner to take the code as held up again), looped.
 */
export function writeQrVideo(path: string, text: string, shownSeconds: number, hiddenSeconds: number): void {
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128)
  const frame = Buffer.from('FRAME\n')
  const shown = Buffer.concat([frame, lumaOf(text), chroma])
  const hidden = Buffer.concat([frame, lumaOf(null), chroma])
  const frames = [
    ...Array.from({ length: Math.round(shownSeconds * FPS) }, () => shown),
    ...Array.from({ length: Math.round(hiddenSeconds * FPS) }, () => hidden),
  ]
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F${FPS}:1 Ip A1:1 C420jpeg\n`)
  writeFileSync(path, Buffer.concat([header, ...frames]))
}
