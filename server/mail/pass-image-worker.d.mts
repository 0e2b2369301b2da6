// The types of pass-image-worker.mjs (plain JavaScript, run by a worker thread without a loader).
/** one pass's PNG (1-bit grey) */
export function drawOne(code: string): Buffer
export default function draw(task: { codes: string[] }): Promise<Uint8Array[]>
