// PostgreSQL's CancelRequest: on a new socket to the same server, the backend's pid and secret key
// (BackendKeyData); the server closes that socket when it has handled it. A stalled network may
// stall this too, so it is bounded, and the connection's own socket is destroyed after it.

import { connect } from 'node:net'

const CANCEL_REQUEST_CODE = 80877102 // 1234 << 16 | 5678

/**
 * Send a CancelRequest and wait (at most `timeoutMs`) for the server to close the socket.
 * Never rejects.
 * @param {{ host?: string, port?: number, pid: number, secretKey: number, timeoutMs: number }} opts
 *   host: a name or address, or a Unix socket directory (starting with '/')
 * @returns {Promise<boolean>} whether the server answered (closed the socket) in time
 */
export function sendCancelRequest ({ host = 'localhost', port = 5432, pid, secretKey, timeoutMs }) {
  return new Promise((resolve) => {
    const socket = host.startsWith('/') ? connect(`${host}/.s.PGSQL.${port}`) : connect(port, host)
    let done = false
    const finish = (answered) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve(answered)
    }
    const timer = setTimeout(finish, timeoutMs, false)
    socket.on('connect', () => {
      const msg = Buffer.alloc(16)
      msg.writeInt32BE(16, 0)
      msg.writeInt32BE(CANCEL_REQUEST_CODE, 4)
      msg.writeInt32BE(pid, 8)
      msg.writeInt32BE(secretKey | 0, 12)
      socket.write(msg)
    })
    socket.on('error', () => finish(false))
    socket.on('close', () => finish(true))
  })
}

/**
 * Cancel what a node-postgres client's backend is running, then destroy the client's socket:
 * the server gets the cancel first (so it stops the statement now rather than when it next
 * writes), and nothing on this side waits for the server beyond `timeoutMs`.
 * @param {import('pg').Client} client connected
 * @param {number} timeoutMs
 * @returns {Promise<void>}
 */
export async function cancelAndDestroy (client, timeoutMs) {
  const socket = client.connection?.stream
  if (!socket || socket.destroyed) return
  if (client.processID && timeoutMs > 0) {
    await sendCancelRequest({ host: client.host, port: client.port, pid: client.processID, secretKey: client.secretKey, timeoutMs })
  }
  socket.destroy()
}
