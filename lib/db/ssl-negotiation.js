// SSL for a lean connection as libpq's sslmode decides it: SSLRequest on the plain socket, then
// TLS on it when the server answers 'S', or plain when it answers 'N' and the mode allows that.

import { isIP } from 'node:net'
import { connect as tlsConnect, checkServerIdentity } from 'node:tls'

const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]) // length 8, code 80877103

/** @typedef {'disable'|'allow'|'prefer'|'require'|'verify-ca'|'verify-full'} SslMode */

const MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']

/**
 * A target's sslmode: its own `sslmode` when it carries one, else read from the node-postgres
 * `ssl` option it was resolved to (lib/server/target/resolve-target.js), where no SSL at all is `false`.
 * @param {{ sslmode?: string, ssl?: any }} config
 * @returns {SslMode}
 */
export function sslModeOf (config) {
  if (config.sslmode !== undefined) {
    if (!MODES.includes(config.sslmode)) throw new Error(`invalid sslmode ${JSON.stringify(config.sslmode)}: use ${MODES.join(', ')}`)
    return /** @type {SslMode} */ (config.sslmode)
  }
  const ssl = config.ssl
  if (!ssl) return 'disable'
  if (ssl === true || ssl.rejectUnauthorized === false) return 'require'
  return typeof ssl.checkServerIdentity === 'function' ? 'verify-ca' : 'verify-full'
}

/** Whether a mode asks the server for SSL before the start-up message. */
export function requestsSsl (mode) {
  return mode !== 'disable' && mode !== 'allow'
}

/**
 * Send SSLRequest on a connected plain socket and wrap it in TLS if the server agrees.
 * Resolves with the socket to speak on (the TLS one, or the same plain one for 'N' under
 * prefer) and whether it is encrypted.
 * @param {import('node:net').Socket} socket connected, reading through 'data' events
 * @param {SslMode} mode
 * @param {{ host?: string, ssl?: any }} config
 * @returns {Promise<{ socket: import('node:net').Socket, tls: boolean }>}
 */
export function negotiateSsl (socket, mode, config) {
  return new Promise((resolve, reject) => {
    const onError = (err) => { cleanup(); reject(err) }
    const onClose = () => { cleanup(); reject(terminated()) }
    const onData = (buf) => {
      cleanup()
      // Anything after the one byte answer came before TLS protected it: refuse it (CVE-2021-23222).
      if (buf.length !== 1) { reject(new Error('the server sent unexpected data after its SSL answer')); return }
      if (buf[0] === 0x4e) { // 'N'
        if (mode === 'prefer') resolve({ socket, tls: false })
        else reject(new Error('server does not support SSL, but SSL was required (sslmode=' + mode + ')'))
        return
      }
      if (buf[0] !== 0x53) { reject(new Error(`the server answered SSLRequest with ${JSON.stringify(String.fromCharCode(buf[0]))}`)); return }
      resolve(startTls(socket, mode, config))
    }
    const cleanup = () => {
      socket.removeListener('data', onData)
      socket.removeListener('error', onError)
      socket.removeListener('close', onClose)
    }
    socket.on('data', onData)
    socket.on('error', onError)
    socket.on('close', onClose)
    socket.write(SSL_REQUEST)
  })
}

// TLS on the socket with libpq's checks: require encrypts without checking the certificate,
// verify-ca checks the chain, verify-full also the host name.
function startTls (socket, mode, config) {
  const given = typeof config.ssl === 'object' && config.ssl !== null ? config.ssl : {}
  const options = { ...given, socket }
  if (mode === 'prefer' || mode === 'require') options.rejectUnauthorized = false
  else options.rejectUnauthorized = true
  const host = config.host ?? 'localhost'
  // the name checked is the target's host (an address is checked against the certificate's IPs)
  options.checkServerIdentity = mode === 'verify-ca' ? () => undefined : (_, cert) => checkServerIdentity(host, cert)
  if (!host.startsWith('/') && isIP(host) === 0) options.servername = host
  return new Promise((resolve, reject) => {
    const secure = tlsConnect(options)
    const onError = (err) => { secure.removeListener('secureConnect', onSecure); reject(err) }
    const onSecure = () => { secure.removeListener('error', onError); resolve({ socket: secure, tls: true }) }
    secure.once('error', onError)
    secure.once('secureConnect', onSecure)
  })
}

/** The error of a socket closed before the start-up finished. */
export function terminated () {
  const e = new Error('the connection was terminated unexpectedly during start-up')
  e.code = 'ECONNRESET'
  return e
}
