// The baseline server: Fastify's hello world on the same core and load as the app.
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/hello', async () => ({ hello: 'world' }))
app.post('/hello', async () => ({ hello: 'world' }))
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })
console.log('listening')
