// The HTTP server of --metrics: GET /metrics in the Prometheus text format, nothing else.

import { listen, closeServer } from './listen.js'
import { guardedServer, requestPath } from './request-guard.js'

export class MetricsEndpoint {
  /** @param {import('./run-metrics.js').RunMetrics} metrics */
  constructor (metrics) {
    this.metrics = metrics
    this.scrapes = 0
    this.server = guardedServer((req, res) => this.handle(req, res))
  }

  /**
   * @param {{ host: string, port: number }} address
   * @returns {Promise<{ host: string, port: number }>}
   */
  async listen (address) {
    this.address = await listen(this.server, address, '--metrics')
    return this.address
  }

  async handle (req, res) {
    const path = requestPath(req)
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' })
      return res.end('pgload serves /metrics\n')
    }
    this.scrapes++
    try {
      const body = await this.metrics.text()
      res.writeHead(200, { 'content-type': this.metrics.contentType, 'cache-control': 'no-store' })
      res.end(body)
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`${err.message}\n`)
    }
  }

  close () { return closeServer(this.server, 1000) }
}
