// What pgload's HTTP servers (--dashboard, --metrics) do with whatever a client sends: they may
// listen beyond loopback, so no request can end the run. Only an origin-form target ('/path?q')
// reaches a handler, anything else is 400; a handler that throws or rejects answers 500; errors of
// the server, a response or a socket stay here. A request Node cannot parse gets Node's own answer
// (400, or 431 for oversized headers) and its socket closed.

import http from 'node:http'

/**
 * The path of an origin-form request target; null for anything else: absolute-form
 * (`http://host/`), `//x`, `*`, or what no URL parser takes.
 * @param {{ url?: string }} req
 * @returns {string|null}
 */
export function requestPath (req) {
  const target = req.url
  // '/\' is '//' to the URL parser (a host would follow)
  if (typeof target !== 'string' || target[0] !== '/' || target[1] === '/' || target[1] === '\\') return null
  try {
    return new URL(target, 'http://localhost').pathname
  } catch {
    return null
  }
}

/**
 * An HTTP server whose requests go to `handle` only with a target requestPath accepts.
 * @param {(req: http.IncomingMessage, res: http.ServerResponse) => any} handle may return a promise
 * @returns {http.Server}
 */
export function guardedServer (handle) {
  const server = http.createServer((req, res) => {
    // a write after the end, or to a socket gone, must not be an uncaught 'error' event
    res.on('error', () => res.destroy())
    if (requestPath(req) === null) return answer(res, 400, 'bad request target: only a path such as / is served\n')
    try {
      const pending = handle(req, res)
      if (typeof pending?.then === 'function') pending.then(undefined, () => answer(res, 500, 'internal error\n'))
    } catch {
      answer(res, 500, 'internal error\n')
    }
  })
  // once listening, an 'error' (a failed accept when out of file descriptors) would throw
  server.on('error', () => {})
  return server
}

function answer (res, status, text) {
  if (res.headersSent) { res.destroy(); return }
  res.writeHead(status, { 'content-type': 'text/plain', 'cache-control': 'no-store', connection: 'close' })
  res.end(text)
}
