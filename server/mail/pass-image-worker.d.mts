// The types of pass-image-worker.mjs (plain JavaScript, run by a worker thread without a loader).
export default function draw(task: { codes: string[] }): Promise<Uint8Array[]>
