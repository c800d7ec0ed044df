// A TCP relay that delays what its clients send by a fixed time (what `tc qdisc ... netem delay`
// does on a link's way out, for kernels without netem). Started as its own process, inside a
// namespace:  node delay-relay.js TARGET_HOST TARGET_PORT DELAY_MS   -> prints "listening PORT".

import { createServer, connect } from 'node:net'

const [host, port, delayMs] = process.argv.slice(2)
const delay = Number(delayMs)

const relay = createServer((client) => {
  client.setNoDelay(true)
  const server = connect(Number(port), host)
  server.setNoDelay(true)
  // timers of one delay fire in the order they were set: the stream's order is kept
  client.on('data', (chunk) => setTimeout(() => server.write(chunk), delay))
  client.on('end', () => setTimeout(() => server.end(), delay))
  server.on('data', (chunk) => client.write(chunk))
  server.on('end', () => client.end())
  const close = () => { client.destroy(); server.destroy() }
  client.on('error', close)
  server.on('error', close)
})
relay.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${relay.address().port}\n`))
process.on('SIGTERM', () => process.exit(0))
