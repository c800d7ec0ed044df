// Bind an HTTP server pgload serves during a run, before the run starts, and close it at the
// end; a port in use or an address that cannot be bound is one line naming the flag.

import { PgloadError } from '../errors.js'
import { formatListenAddress } from '../options/listen-address.js'

const REASONS = {
  EADDRINUSE: 'the port is in use',
  EADDRNOTAVAIL: 'the address is not one of this machine\'s',
  EACCES: 'binding it needs more rights (ports below 1024)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve'
}

/**
 * Listen on the address; resolves with the address bound (the real port when 0 was asked).
 * @param {import('node:http').Server} server
 * @param {{ host: string, port: number }} address
 * @param {string} flag the option that asked for it, named in an error
 * @returns {Promise<{ host: string, port: number }>}
 */
export function listen (server, address, flag) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off('listening', onListening)
      const why = REASONS[err.code] ?? err.message
      reject(new PgloadError(`${flag} ${formatListenAddress(address)}: cannot listen: ${why}`, { code: 'LISTEN', cause: err }))
    }
    const onListening = () => {
      server.off('error', onError)
      resolve({ host: address.host, port: server.address().port })
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen({ host: address.host, port: address.port, exclusive: true })
  })
}

/**
 * Close the server: open connections get `graceMs` to finish (a page reading the final report),
 * then they are cut.
 * @param {import('node:http').Server} server
 * @param {number} [graceMs]
 * @returns {Promise<void>}
 */
export function closeServer (server, graceMs = 2000) {
  if (!server.listening) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs)
    timer.unref()
    server.close(() => { clearTimeout(timer); resolve() })
    server.closeIdleConnections()
  })
}
