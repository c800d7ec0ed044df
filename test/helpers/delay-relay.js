// A TCP relay that delays what its clients send by a fixed time (what `tc qdisc ... netem delay`
// does on a link's way out, for kernels without netem). Started as its own process, inside a
// namespace:  node delay-relay.js TARGET_HOST TARGET_PORT DELAY_MS   -> prints "listening PORT".

import { createServer, connect } from 'node:net'
import { performance } from 'node:perf_hooks'

const [host, port, delayMs] = process.argv.slice(2)
const delay = Number(delayMs)

/**
 * Sends each chunk `delay` ms after it arrived, in order. A timer alone may fire up to a
 * millisecond early (Node counts timers from a cached, whole-millisecond loop clock), so each
 * chunk's due time is kept on the precise clock and a timer that fires early is set again.
 */
function delayedWriter (socket) {
  const queue = []
  let timer = null
  const flush = () => {
    timer = null
    const now = performance.now()
    while (queue.length > 0 && queue[0].due <= now) {
      const { chunk } = queue.shift()
      if (chunk === null) socket.end()
      else socket.write(chunk)
    }
    if (queue.length > 0) timer = setTimeout(flush, Math.max(1, Math.ceil(queue[0].due - now)))
  }
  return (chunk) => {
    queue.push({ chunk, due: performance.now() + delay })
    if (timer === null) timer = setTimeout(flush, delay)
  }
}

const relay = createServer((client) => {
  client.setNoDelay(true)
  const server = connect(Number(port), host)
  server.setNoDelay(true)
  const send = delayedWriter(server)
  client.on('data', (chunk) => send(chunk))
  client.on('end', () => send(null))
  server.on('data', (chunk) => client.write(chunk))
  server.on('end', () => client.end())
  const close = () => { client.destroy(); server.destroy() }
  client.on('error', close)
  server.on('error', close)
})
relay.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${relay.address().port}\n`))
process.on('SIGTERM', () => process.exit(0))
