// A lean connection from the first byte: reach the server (by default on a socket, TCP or Unix,
// with SSL as the mode says), then start-up and authentication, all within the connect timeout.

import { Socket } from 'node:net'
import { HandleTransport } from './handle-transport.js'
import { StreamTransport } from './transport.js'
import { Startup, startupMessage } from './startup.js'
import { requestsSsl, negotiateSsl } from './ssl-negotiation.js'

/**
 * What the start-up learnt, at the first ReadyForQuery.
 * @typedef {{ transactionStatus: 'I'|'T'|'E', pid: number, secretKey: number,
 *   parameters: Record<string, string>, method: string }} Session
 */

/**
 * The connection's side of a start-up: where the transport delivers, and a callback that gets
 * the transport and the start-up as soon as they exist (the parser hands the start-up every
 * message until the first ReadyForQuery).
 * @typedef {{ receiver: import('./transport.js').TransportReceiver,
 *   attach: (transport: import('./transport.js').Transport, startup: Startup) => void,
 *   notice: (notice: any) => void }} StartLink
 */

/**
 * Reach the server and start a session up; resolves at the first ReadyForQuery. On failure or
 * timeout the transport is destroyed and the promise rejects with the reason: the server's
 * ErrorResponse (its SQLSTATE in `code`), a socket error, or code ETIMEDOUT.
 * @param {import('pg').ClientConfig & { sslmode?: string }} config a target's config
 * @param {{ mode: import('./ssl-negotiation.js').SslMode, applicationName: string, timeoutMs: number,
 *   connect?: import('./transport.js').ConnectTransport }} opts
 * @param {StartLink} link
 * @returns {Promise<Session>}
 */
export async function startSession (config, { mode, applicationName, timeoutMs, connect = connectSocket }, link) {
  const abort = new AbortController()
  let transport = null
  let timer = null
  const expired = new Promise((resolve, reject) => {
    if (timeoutMs > 0) {
      timer = setTimeout(() => reject(Object.assign(new Error(`timeout expired after ${timeoutMs} ms while connecting`), { code: 'ETIMEDOUT' })), timeoutMs)
    }
  })
  const begin = async () => {
    const t = await connect(config, mode, link.receiver, abort.signal)
    if (abort.signal.aborted) { t.destroy(); throw abort.signal.reason }
    transport = t
    const startup = new Startup({ user: config.user, password: config.password }, (bytes) => t.write(bytes))
    startup.onNotice = link.notice
    link.attach(t, startup)
    // client_encoding: rows are decoded as UTF-8 whatever the database's encoding (as node-postgres)
    t.write(startupMessage({ user: config.user, database: config.database, application_name: applicationName, client_encoding: 'UTF8', options: config.options }))
    const transactionStatus = await startup.done
    return { transactionStatus, pid: startup.pid, secretKey: startup.secretKey, parameters: startup.parameters, method: startup.method }
  }
  try {
    return await Promise.race([begin(), expired])
  } catch (err) {
    abort.abort(err)
    transport?.destroy()
    throw err
  } finally {
    clearTimeout(timer)
  }
}

/**
 * pgload's way to a server: a socket (TCP, or Unix for a host starting with '/'), SSL as the mode
 * says; a plain socket's transport reads into a buffer of its own and writes to the handle.
 * @type {import('./transport.js').ConnectTransport}
 */
export async function connectSocket (config, mode, receiver, signal) {
  const host = config.host ?? 'localhost'
  const port = Number(config.port ?? 5432)
  // Our own read buffer on a socket that stays plain; TLS reads through its stream.
  const plain = requestsSsl(mode) ? null : new HandleTransport(receiver)
  let socket = plain?.socket ?? new Socket()
  const giveUp = () => socket.destroy()
  signal.addEventListener('abort', giveUp, { once: true })
  try {
    socket.setNoDelay(true) // as libpq and node-postgres: a statement goes out at once, not after an ACK
    await new Promise((resolve, reject) => {
      socket.once('connect', resolve)
      socket.once('error', reject)
      if (host.startsWith('/')) socket.connect(`${host}/.s.PGSQL.${port}`)
      else socket.connect(port, host)
    })
    socket.removeAllListeners('error')
    if (plain !== null) return plain.listen()
    let encrypted
    ({ socket, tls: encrypted } = await negotiateSsl(socket, mode, config))
    // refused under prefer: the plain socket, read through its stream, written to its handle
    return encrypted ? new StreamTransport(socket, receiver) : new HandleTransport(receiver, socket).listen()
  } catch (err) {
    socket.destroy() // no transport owns it yet: a refused SSL or a failed connect releases it here
    throw err
  } finally {
    signal.removeEventListener('abort', giveUp)
  }
}
