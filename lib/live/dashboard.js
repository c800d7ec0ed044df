// The live dashboard's HTTP server: GET / is the page, GET /events the server-sent events (a
// full update at once to a page that just connected, then at most one per interval with only
// what changed, the final report at the end), GET /report.html the final report once there is one.

import { listen, closeServer } from './listen.js'
import { guardedServer, requestPath } from './request-guard.js'
import { liveState, livePageHtml } from './dashboard-page.js'
import { liveDelta, fullUpdate } from './live-delta.js'

// ms between SSE comments that keep idle proxies from closing the stream
const KEEPALIVE_MS = 15_000

export class Dashboard {
  /**
   * @param {import('./live-document.js').LiveDocument} live
   * @param {{ banner?: () => string }} [opts] banner: HTML above the run's header (a sweep's
   *   position and its cells done), asked again at each update
   */
  constructor (live, { banner = () => '' } = {}) {
    this.live = live
    this.banner = banner
    this.clients = new Set()
    /** @type {import('./live-delta.js').LiveState|null} the page's state the open pages have */
    this.state = null
    this.fullText = null // the full update of `state`, as SSE text
    this.reportHtml = null
    this.server = guardedServer((req, res) => this.handle(req, res))
    this.keepalive = null
  }

  /**
   * Bind before the run starts; throws a one-line error for a port in use or a bad address.
   * @param {{ host: string, port: number }} address
   * @returns {Promise<{ host: string, port: number }>}
   */
  async listen (address) {
    this.address = await listen(this.server, address, '--dashboard')
    this.keepalive = setInterval(() => { for (const res of this.clients) res.write(':\n\n') }, KEEPALIVE_MS).unref()
    return this.address
  }

  /** An interval closed (or the warm-up moved): send what changed to the pages open, if any. */
  changed () {
    if (this.clients.size === 0 || this.reportHtml !== null) return
    this.advance()
  }

  /**
   * Show another run's live document (a sweep's next run): the pages open get it whole.
   * @param {import('./live-document.js').LiveDocument} live
   */
  follow (live) {
    this.live = live
    this.refresh()
  }

  /** The banner changed (or the document was replaced): the pages open get the page whole. */
  refresh () {
    this.state = null
    this.fullText = null
    this.changed()
  }

  /** Bring the state to the live document's version; the pages open get the changes. */
  advance () {
    if (this.state?.version === this.live.version) return
    const next = liveState(this.live, this.state)
    next.header = this.banner() + next.header
    const delta = this.state && this.clients.size > 0 ? liveDelta(this.state, next) : null
    const text = this.clients.size === 0 ? null : sseEvent('update', JSON.stringify(delta ?? fullUpdate(next)))
    this.state = next
    this.fullText = delta ? null : text
    for (const res of this.clients) res.write(text)
  }

  /**
   * The run ended: its final report goes to every page open and is served from now on.
   * @param {string} html the report `pgload report` writes for the results
   */
  finish (html) {
    this.reportHtml = html
    const text = sseEvent('report', html)
    for (const res of this.clients) res.end(text)
    this.clients.clear()
  }

  /** Stop serving; pages still reading get a moment. */
  async close () {
    clearInterval(this.keepalive)
    for (const res of this.clients) res.end()
    this.clients.clear()
    await closeServer(this.server)
  }

  /** The full update of the current state (a page that just connected). */
  currentFull () {
    this.advance()
    this.fullText ??= sseEvent('update', JSON.stringify(fullUpdate(this.state)))
    return this.fullText
  }

  handle (req, res) {
    const path = requestPath(req)
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only\n')
    if (path === '/' || path === '/index.html') {
      return send(res, 200, 'text/html; charset=utf-8', this.reportHtml ?? livePageHtml(this.live, this.banner()))
    }
    if (path === '/report.html') {
      return this.reportHtml ? send(res, 200, 'text/html; charset=utf-8', this.reportHtml) : send(res, 404, 'text/plain', 'the run has not ended yet\n')
    }
    if (path === '/events') return this.subscribe(req, res)
    // browsers ask for it; no icon is no error
    if (path === '/favicon.ico') { res.writeHead(204); return res.end() }
    send(res, 404, 'text/plain', 'not found\n')
  }

  subscribe (req, res) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
    if (this.reportHtml !== null) return res.end(sseEvent('report', this.reportHtml))
    // everything measured so far, at once; then only the changes
    res.write(this.currentFull())
    this.clients.add(res)
    req.on('close', () => this.clients.delete(res))
  }
}

function send (res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
  res.end(body)
}

/** One server-sent event; every line of the data gets its own `data:` field. */
export function sseEvent (name, data) {
  return `event: ${name}\ndata: ${String(data).replace(/\r?\n/g, '\ndata: ')}\n\n`
}
