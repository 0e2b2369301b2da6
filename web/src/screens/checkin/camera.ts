// The door's camera: the back camera's video in the page, read for QR codes by the browser's own
// BarcodeDetector where it has one (Android Chrome, Safari: fast and off the main thread), else by
// the same API from `barcode-detector` (ZXing's C++ reader built to WebAssembly, loaded only then;
// the .wasm is one of the app's own files, so the door's offline copy keeps it and no CDN is
// asked). ZXing's JavaScript port, used before, missed 8% of clean drawings of pass codes. Each
// code read is handed on; the screen decides what to do with a code it keeps seeing (repeats.ts).

import { retryImport } from '../../ui/retry-import.ts'

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

function readFrames(video: HTMLVideoElement, detector: BarcodeDetectorLike, onCode: (text: string) => void) {
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

/** the WebAssembly reader (barcode-detector's ponyfill), its .wasm served from the app itself */
async function wasmDetector(): Promise<BarcodeDetectorLike> {
  const [{ BarcodeDetector, prepareZXingModule }, { default: wasmUrl }] = await Promise.all([
    retryImport(() => import('barcode-detector/ponyfill')),
    retryImport(() => import('zxing-wasm/reader/zxing_reader.wasm?url')),
  ])
  // instantiated now, so a reader that cannot load fails here, as a camera error, not frame by frame
  await prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
    },
    fireImmediately: true,
  })
  return new BarcodeDetector({ formats: ['qr_code'] })
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
    const stopReading = readFrames(video, detector ?? (await wasmDetector()), onCode)
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
