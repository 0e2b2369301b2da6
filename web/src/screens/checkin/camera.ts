// The door's camera: the back camera's video in the page, read for QR codes by the browser's own
// BarcodeDetector where it has one (Android Chrome, Safari: fast and off the main thread), else by
// ZXing's reader (@zxing/browser, loaded only then). Each code read is handed on; the screen
// decides what to do with a code it keeps seeing (repeats.ts).

export type CameraReader = { stop(): void }

/** how often a frame is read, in ms: a code is seen well within the 300 ms the door allows */
const READ_EVERY_MS = 100

type DetectedBarcode = { rawValue: string }
type BarcodeDetectorLike = { detect(source: HTMLVideoElement): Promise<DetectedBarcode[]> }
type BarcodeDetectorClass = {
  new (options: { formats: string[] }): BarcodeDetectorLike
  getSupportedFormats(): Promise<string[]>
}

/** the browser's BarcodeDetector when it reads QR codes, else null */
async function nativeDetector(): Promise<BarcodeDetectorLike | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector
  if (!Detector) return null
  try {
    const formats = await Detector.getSupportedFormats()
    return formats.includes('qr_code') ? new Detector({ formats: ['qr_code'] }) : null
  } catch {
    return null
  }
}

function readNatively(
  video: HTMLVideoElement,
  detector: BarcodeDetectorLike,
  onCode: (text: string) => void,
) {
  let running = true
  let timer: ReturnType<typeof setTimeout> | null = null
  const read = async () => {
    if (!running) return
    if (video.readyState >= video.HAVE_CURRENT_DATA) {
      try {
        for (const found of await detector.detect(video))
          if (running && found.rawValue) onCode(found.rawValue)
      } catch {
        // a frame that could not be read: the next one will be
      }
    }
    if (running) timer = setTimeout(read, READ_EVERY_MS)
  }
  void read()
  return () => {
    running = false
    if (timer) clearTimeout(timer)
  }
}

async function readWithZxing(video: HTMLVideoElement, onCode: (text: string) => void) {
  const { BrowserQRCodeReader } = await import('@zxing/browser')
  const reader = new BrowserQRCodeReader(undefined, {
    delayBetweenScanAttempts: READ_EVERY_MS,
    delayBetweenScanSuccess: READ_EVERY_MS,
  })
  const controls = reader.scan(video, (result) => {
    if (result) onCode(result.getText())
  })
  return () => controls.stop()
}

/**
 * Starts the camera into `video` and reads codes from it until stopped. Fails (the browser's own
 * error: NotAllowedError, NotFoundError…) when there is no camera or it may not be used.
 */
export async function startCamera(
  video: HTMLVideoElement,
  onCode: (text: string) => void,
): Promise<CameraReader> {
  if (!navigator.mediaDevices?.getUserMedia)
    throw new DOMException('This browser cannot use a camera here.', 'NotSupportedError')
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: false,
    video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
  })
  const release = () => {
    for (const track of stream.getTracks()) track.stop()
    video.srcObject = null
  }
  try {
    video.srcObject = stream
    video.muted = true
    video.playsInline = true
    await video.play()
    const detector = await nativeDetector()
    const stopReading = detector ? readNatively(video, detector, onCode) : await readWithZxing(video, onCode)
    return {
      stop() {
        stopReading()
        release()
      },
    }
  } catch (error) {
    release()
    throw error
  }
}
