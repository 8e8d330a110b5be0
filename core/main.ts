// `npm start`: runs the server on embedded defaults until SIGINT/SIGTERM.
import { Kernel } from './kernel.ts'

const kernel = new Kernel()
let stopping = false

async function stop (signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  kernel.log.info({ signal }, 'shutting down: draining requests')
  const force = setTimeout(() => { kernel.log.error('shutdown took too long; exiting'); process.exit(1) }, kernel.settings.drainTimeoutMs + 10_000)
  force.unref()
  await kernel.close()
  kernel.log.info('stopped')
  process.exit(0)
}

process.on('SIGINT', () => { void stop('SIGINT') })
process.on('SIGTERM', () => { void stop('SIGTERM') })

try {
  await kernel.start()
} catch (err) {
  kernel.log.fatal({ err }, `could not start: ${(err as Error).message}`)
  process.exit(1)
}
