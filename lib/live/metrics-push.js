// --metrics-push: the run's metrics pushed to a Prometheus remote-write receiver once per closed
// interval and once at the end, for runs that end before a scrape would see them (CI jobs,
// Kubernetes Jobs). The series are read from the registry /metrics serves, so the two agree.
// Pushes never overlap (one asked for while one is in flight is made after it, with the
// figures of then) and a receiver that fails costs a warning, never the run.

import http from 'node:http'
import https from 'node:https'
import { remoteWriteBody, timeSeriesOf } from './remote-write-encoding.js'

/** ms a push may take before it counts as failed. */
export const PUSH_TIMEOUT_MS = 5000
/** ms the end of the run (end() and close() together) waits for the last push. */
export const CLOSE_WAIT_MS = 5000
// bytes of a receiver's error answer kept for the message
const ERROR_BODY_BYTES = 512

/**
 * @typedef {object} MetricsPushTarget
 * @property {string} url http(s) URL of the receiver, user:password@ for basic auth allowed
 * @property {[string, string][]} [headers] extra request headers (a bearer token)
 */

/**
 * A run output that pushes metrics: start(info), interval(payload), stage(payload), end(results),
 * close().
 */
export class MetricsPusher {
  /**
   * @param {MetricsPushTarget} target
   * @param {{ registries: () => any[], warn: (line: string) => void, now?: () => number, timeoutMs?: number,
   *   closeWaitMs?: number }} opts registries: the prom-client registries to read at each push;
   *   warn: one line for people (no credentials are ever in it)
   */
  constructor (target, { registries, warn, now = Date.now, timeoutMs = PUSH_TIMEOUT_MS, closeWaitMs = CLOSE_WAIT_MS }) {
    const url = new URL(target.url)
    this.headers = {
      'content-encoding': 'snappy',
      'content-type': 'application/x-protobuf',
      'x-prometheus-remote-write-version': '0.1.0',
      'user-agent': 'pgload'
    }
    if (url.username || url.password) {
      const user = decodeURIComponent(url.username)
      const password = decodeURIComponent(url.password)
      this.headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
      url.username = ''
      url.password = ''
    }
    for (const [name, value] of target.headers ?? []) this.headers[name.toLowerCase()] = value
    this.url = url
    /** the receiver as it may be shown: no credentials, no query */
    this.shownUrl = `${url.origin}${url.pathname}`
    this.registries = registries
    this.warn = warn
    this.now = now
    this.timeoutMs = timeoutMs
    this.closeWaitMs = closeWaitMs
    this.attempts = 0
    this.pushed = 0
    this.lastError = null
    this.lastTimestampMs = 0
    /** wall-clock ms of the last interval's end: the time of the figures a push reads */
    this.figuresAtMs = 0
    /** @type {Promise<void>|null} */
    this.inFlight = null
    /** a push was asked for while one was in flight */
    this.pending = false
    /** @type {import('node:http').ClientRequest|null} the POST in flight */
    this.request = null
    /** performance.now() past which the end of the run waits for no push */
    this.giveUpAt = undefined
    this.closed = false
    this.ended = false
  }

  /**
   * The run starts (its 'start' event): nothing is pushed before its first interval.
   * @param {any} [info]
   */
  start (info) {}

  /**
   * An interval of the run closed (the run's 'interval' event): push the figures as they are now.
   * @param {any} [payload]
   */
  interval (payload) {
    this.figuresAtMs = this.now()
    this.push()
  }

  /**
   * A stage of the load profile begins: its figures come with the interval that closes it.
   * @param {any} [payload]
   */
  stage (payload) {}

  /**
   * The run ended: the final push (the last interval and the gauges at rest). Resolves once it
   * is done, or at closeWaitMs from now (close() waits no longer); never rejects.
   * @param {any} [results]
   * @returns {Promise<void>}
   */
  async end (results) {
    if (this.ended) return
    this.ended = true
    this.figuresAtMs = this.now()
    this.push()
    await this.settledWithin()
  }

  /**
   * Wait for the push in flight, at most until closeWaitMs after end() (or now), then give it up
   * and say how the pushes went if one failed.
   * @returns {Promise<void>}
   */
  async close () {
    await this.settledWithin()
    this.closed = true
    this.pending = false
    this.request?.destroy(new Error('given up at the end of the run'))
    await this.settled()
    if (this.lastError) this.warn(`pgload: warning: --metrics-push: pushed ${this.pushed} of ${this.attempts} times to ${this.shownUrl}; last error: ${this.lastError}`)
    this.lastError = null
  }

  /** Resolves when no push is in flight or asked for. */
  async settled () {
    while (this.inFlight) await this.inFlight
  }

  /** settled(), or the end of the wait that the end of the run allows, whichever comes first. */
  async settledWithin () {
    this.giveUpAt ??= performance.now() + this.closeWaitMs
    let timer
    const bound = new Promise((resolve) => { timer = setTimeout(resolve, Math.max(0, this.giveUpAt - performance.now())); timer.unref() })
    await Promise.race([this.settled(), bound])
    clearTimeout(timer)
  }

  /** Push now, or right after the push in flight. */
  push () {
    if (this.closed) return
    if (this.inFlight) { this.pending = true; return }
    this.inFlight = this.pushOnce().finally(() => {
      this.inFlight = null
      if (this.pending) { this.pending = false; this.push() }
    })
  }

  async pushOnce () {
    this.attempts++
    // the samples are stamped with the end of the interval whose figures they are (a push that
    // waited behind another still is); each push's are later than the last one's, as a receiver wants
    const timestampMs = Math.max(this.figuresAtMs || this.now(), this.lastTimestampMs + 1)
    this.lastTimestampMs = timestampMs
    try {
      const series = []
      for (const r of this.registries()) if (r) series.push(...timeSeriesOf(await r.getMetricsAsJSON(), timestampMs))
      if (this.closed) throw new Error('given up at the end of the run')
      await this.post(remoteWriteBody(series))
      this.pushed++
    } catch (err) {
      if (!this.lastError) this.warn(`pgload: warning: --metrics-push: ${this.shownUrl} did not take the metrics: ${err.message} (the run goes on; the count follows at the end)`)
      this.lastError = err.message
    }
  }

  /**
   * One POST of a body; resolves on a 2xx answer, rejects with a one-line reason otherwise.
   * @param {Buffer} body
   * @returns {Promise<void>}
   */
  post (body) {
    const lib = this.url.protocol === 'https:' ? https : http
    return new Promise((resolve, reject) => {
      const req = this.request = lib.request(this.url, { method: 'POST', headers: { ...this.headers, 'content-length': body.length }, agent: false, timeout: this.timeoutMs })
      const late = () => req.destroy(new Error(`no answer within ${this.timeoutMs / 1000} s`))
      const timer = setTimeout(late, this.timeoutMs)
      timer.unref()
      const settle = (err) => {
        clearTimeout(timer)
        if (this.request === req) this.request = null
        if (err) reject(err)
        else resolve()
      }
      req.on('timeout', late)
      req.on('error', (err) => settle(new Error(reasonOf(err))))
      req.on('response', (res) => {
        const chunks = []
        let size = 0
        res.on('data', (c) => { if (size < ERROR_BODY_BYTES) { chunks.push(c); size += c.length } })
        res.on('error', (err) => settle(new Error(reasonOf(err))))
        res.on('end', () => {
          if (res.statusCode >= 200 && res.statusCode < 300) return settle()
          const text = Buffer.concat(chunks).toString('utf8').slice(0, ERROR_BODY_BYTES).split('\n')[0].trim()
          settle(new Error(`HTTP ${res.statusCode}${text ? `: ${text}` : ''}`))
        })
      })
      req.end(body)
    })
  }
}

const REASONS = {
  ECONNREFUSED: 'connection refused (is the receiver running?)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ETIMEDOUT: 'the connection timed out'
}

function reasonOf (err) {
  return REASONS[err.code] ?? err.message
}
