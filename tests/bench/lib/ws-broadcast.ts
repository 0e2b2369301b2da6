// The fan-out baseline: a plain `ws` server that broadcasts a payload to all its clients when
// asked (POST /send), stamped with its send time.
import { createServer } from 'node:http'
import { WebSocketServer } from 'ws'

let id = 0
const server = createServer((request, response) => {
  if (request.url === '/send') {
    const payload = JSON.stringify({
      id: ++id,
      sentAt: Date.now(),
      data: {
        eventId: '6b0756b8bcb9477a7c41091b',
        ticketTypeId: '6b0756b838615e2b64a5009b',
        available: 1234,
      },
    })
    for (const client of wss.clients) client.send(payload)
  }
  response.end('ok')
})
const wss = new WebSocketServer({ server })
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'))
