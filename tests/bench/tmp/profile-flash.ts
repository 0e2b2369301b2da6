import { runLoad, spawnPinned, waitUntilUp } from '/work/main/tests/bench/lib/processes.ts'
import { seed } from '/work/main/tests/bench/lib/seed.ts'
import { freePort } from '/work/main/tests/support/server.ts'

const data = seed({ buyers: 5000, events: 1, seats: 2000 })
const port = await freePort()
const { spawn } = await import('node:child_process')
const child = spawn(
  'taskset',
  [
    '-c',
    '0',
    process.execPath,
    '--cpu-prof',
    '--cpu-prof-dir=/tmp/sprof',
    '--import',
    'tsx',
    'server/main.ts',
  ],
  {
    cwd: '/work/main',
    env: {
      ...process.env,
      DATA_DIR: data.dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      SQLITE_SYNCHRONOUS: process.argv[2] ?? 'NORMAL',
      QUEUE_PREFIX: `prof${Date.now()}`,
    },
    stdio: 'inherit',
  },
)
await waitUntilUp(`http://127.0.0.1:${port}/api/v1/health/live`)
const r = await runLoad('tests/bench/lib/cannon.ts', {
  url: `http://127.0.0.1:${port}`,
  method: 'POST',
  path: '/api/v1/ticket/create',
  body: { eventId: data.events[0]!.eventId, ticketType: 'General Admission', quantity: 1 },
  tokensFile: data.tokensFile,
  connections: 100,
  amount: 5000,
})
console.log(r)
child.kill('SIGTERM')
await new Promise((r) => child.once('exit', r))
