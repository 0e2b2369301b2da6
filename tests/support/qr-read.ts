// Reads the QR code in a PNG (a mail's pass image) with the reader the check-in screen falls back
// on where the browser has no BarcodeDetector: ZXing's C++ reader built to WebAssembly
// (zxing-wasm, under barcode-detector), its .wasm read from node_modules. pngjs decodes the image.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { PNG } from 'pngjs'
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader'

const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'))
let ready: Promise<unknown> | null = null

/** the text of the one QR code in `png`; throws when there is none */
export async function readQrCode(png: Buffer): Promise<string> {
  ready ??= prepareZXingModule({
    overrides: {
      wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer,
    },
    fireImmediately: true,
  })
  await ready
  const image = PNG.sync.read(png)
  const [found] = await readBarcodes(
    { data: new Uint8ClampedArray(image.data), width: image.width, height: image.height, colorSpace: 'srgb' },
    { formats: ['QRCode'] },
  )
  if (!found?.isValid) throw new Error('no QR code in the image')
  return found.text
}
