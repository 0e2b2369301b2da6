// An event as the web form submits it (POST /event/create, multipart), for the tests and the benches
// that make events through the real API.
import type { InjectOptions } from 'fastify'
import { bearer } from './accounts.ts'

/** next year: a sample event's date is in it */
const nextYear = new Date().getFullYear() + 1

/** The form's fields, a sample event's unless `fields` say otherwise, and the request that sends them. */
export async function eventForm(
  organizerToken: string,
  fields: Record<string, string>,
  ticketTypes: unknown[],
): Promise<{ fields: Record<string, string>; request: InjectOptions }> {
  const all: Record<string, string> = {
    title: 'Kabini Jazz Weekend',
    description: 'Two days of jazz by the river.',
    date: `${nextYear}-03-15`,
    time: '18:00',
    location: 'Kabini, Karnataka',
    category: 'Music',
    ticketTypes: JSON.stringify(ticketTypes),
    ...fields,
  }
  const form = new FormData()
  for (const [name, value] of Object.entries(all)) form.append(name, value)
  const encoded = new Request('http://x/', { method: 'POST', body: form })
  return {
    fields: all,
    request: {
      method: 'POST',
      url: '/api/v1/event/create',
      payload: Buffer.from(await encoded.arrayBuffer()),
      headers: { 'content-type': encoded.headers.get('content-type') ?? '', ...bearer(organizerToken) },
    },
  }
}
