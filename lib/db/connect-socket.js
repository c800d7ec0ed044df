// A lean connection's socket from the first byte: connect (TCP or Unix socket), SSL as the mode
// says, start-up and authentication, all within the connect timeout.

import { Socket } from 'node:net'
import { HandleWriter } from './handle-writer.js'
import { Startup, startupMessage } from './startup.js'
import { requestsSsl, negotiateSsl } from './ssl-negotiation.js'

/**
 * Connect `conn` (a new LeanConnection) and start it up; resolves at the first ReadyForQuery.
 * On failure or timeout its socket is destroyed and the promise rejects with the reason: the
 * server's ErrorResponse (its SQLSTATE in `code`), a socket error, or code ETIMEDOUT.
 * @param {import('./lean-connection.js').LeanConnection} conn
 * @param {import('pg').ClientConfig & { sslmode?: string }} config a target's config
 * @param {{ mode: import('./ssl-negotiation.js').SslMode, applicationName: string, timeoutMs: number }} opts
 * @returns {Promise<void>}
 */
export async function startConnection (conn, config, { mode, applicationName, timeoutMs }) {
  let timer = null
  const expired = new Promise((resolve, reject) => {
    if (timeoutMs > 0) {
      timer = setTimeout(() => reject(Object.assign(new Error(`timeout expired after ${timeoutMs} ms while connecting`), { code: 'ETIMEDOUT' })), timeoutMs)
    }
  })
  try {
    await Promise.race([connect(conn, config, mode, applicationName), expired])
  } catch (err) {
    conn.destroy()
    throw err
  } finally {
    clearTimeout(timer)
  }
}

async function connect (conn, config, mode, applicationName) {
  const host = config.host ?? 'localhost'
  const port = Number(config.port ?? 5432)
  conn._cancelTo = { host, port }
  // Our own read buffer on a socket that stays plain; TLS reads through its stream.
  let socket = conn._socket = requestsSsl(mode) ? new Socket() : conn._createSocket()
  socket.setNoDelay(true) // as libpq and node-postgres: a statement goes out at once, not after an ACK
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
    if (host.startsWith('/')) socket.connect(`${host}/.s.PGSQL.${port}`)
    else socket.connect(port, host)
  })
  socket.removeAllListeners('error')
  let encrypted = false
  if (requestsSsl(mode)) {
    ({ socket, tls: encrypted } = await negotiateSsl(socket, mode, config))
    conn._socket = socket
  }
  if (conn._readBuf === null) socket.on('data', (buf) => conn._parse(buf, buf.length))
  socket.on('close', () => conn._onClose())
  socket.on('error', (err) => { conn._reader.socketError ??= err })
  // straight to the handle only on a plain socket (TLS encrypts in its stream)
  conn._out = new HandleWriter(socket, !encrypted)
  const startup = conn._startup = new Startup({ user: config.user, password: config.password }, (bytes) => socket.write(bytes))
  startup.onNotice = (n) => conn.onNotice?.(n)
  conn._starting = true
  // client_encoding: rows are decoded as UTF-8 whatever the database's encoding (as node-postgres)
  socket.write(startupMessage({ user: config.user, database: config.database, application_name: applicationName, client_encoding: 'UTF8', options: config.options }))
  conn._transaction = await startup.done
  conn._starting = false
  conn._startup = null
  conn._pid = startup.pid
  conn._secretKey = startup.secretKey
  conn.parameters = startup.parameters
  conn.authentication = startup.method
}
