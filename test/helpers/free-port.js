// A loopback port free at the moment of asking, for a test that must name one on a command line.

import net from 'node:net'

/** @returns {Promise<number>} */
export async function freePort () {
  const s = net.createServer()
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address()
  await new Promise((resolve) => s.close(resolve))
  return port
}
