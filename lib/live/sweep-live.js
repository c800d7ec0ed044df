// Watching a sweep as it happens: one dashboard, one metrics endpoint and one metrics push for
// all its runs, set up before the first. The page shows where the sweep is (run and cell of how
// many, time left), the current run's live charts (a fresh live document per run, the run
// dashboard's page machinery), and the cells done so far; at the end, the sweep's report. The
// endpoint serves (and the push sends) the current run's metrics (a new registry per run,
// labelled with its cell) and the sweep's own gauges.

import client from 'prom-client'
import { LiveDocument } from './live-document.js'
import { Dashboard } from './dashboard.js'
import { RunMetrics } from './run-metrics.js'
import { MetricsEndpoint } from './metrics-endpoint.js'
import { MetricsPusher } from './metrics-push.js'
import { followLiveRun } from './index.js'
import { sweepBannerHtml } from './sweep-banner.js'
import { formatListenAddress, isLoopback } from '../options/listen-address.js'
import { writeFileAtomic } from '../atomic-write.js'

/**
 * @typedef {object} SweepLiveOptions
 * @property {{ host: string, port: number }} [dashboard]
 * @property {string} [dashboardOut] save the final page (the sweep's report) here
 * @property {{ host: string, port: number }} [metrics]
 * @property {import('./metrics-push.js').MetricsPushTarget} [metricsPush] push the endpoint's figures here at each interval
 */

/**
 * Bind what is asked (nothing: null), before the sweep's first run. Throws one line when an
 * address cannot be bound.
 * before its document exists (setDoc gives it).
 * @param {SweepLiveOptions} options
 * @param {{ err?: { write(s: string): any }, now?: () => Date, atEnd?: string }} [opts] atEnd: what the
 *   announcement says the page does once the sweep has ended
 * @returns {Promise<SweepLive|null>}
 */
export async function startSweepLive (options, { err, now = () => new Date(), atEnd = 'then the report' }) {
  if (!options.dashboard && !options.metrics && !options.metricsPush) return null
  const view = new SweepLive(options, { now, err })
  try {
    if (view.dashboard) view.urls.dashboard = `http://${formatListenAddress(await view.dashboard.listen(options.dashboard))}/`
    if (view.endpoint) view.urls.metrics = `http://${formatListenAddress(await view.endpoint.listen(options.metrics))}/metrics`
  } catch (error) {
    await view.close()
    throw error
  }
  if (view.dashboard) {
    err.write(`pgload: dashboard at ${view.urls.dashboard} (each run of the sweep live, the cells done so far, ${atEnd.replace('the report', 'the sweep\'s report')})\n`)
    if (!isLoopback(options.dashboard.host)) err.write(`pgload: the dashboard listens on ${options.dashboard.host}, not only this machine: anyone who reaches it sees the sweep's figures (no password, address or environment)\n`)
  }
  if (view.endpoint) {
    err.write(`pgload: Prometheus metrics at ${view.urls.metrics} (the current run's, labelled with its cell)\n`)
    if (!isLoopback(options.metrics.host)) err.write(`pgload: the metrics endpoint listens on ${options.metrics.host}, not only this machine\n`)
  }
  if (view.pusher) err.write(`pgload: pushing metrics to ${view.pusher.shownUrl} at each interval of each run and at the end\n`)
  return view
}

export class SweepLive {
  /**
   * @param {SweepLiveOptions} options
   * @param {{ now: () => Date, err?: { write(s: string): any } }} opts err: where the push's warnings go
   */
  constructor (options, { now, err }) {
    this.options = options
    /** @type {Record<string, any>|null} the sweep document, read again at each update (its runs and cells) */
    this.doc = null
    this.now = now
    this.urls = {}
    /** where the sweep is: what the banner shows */
    this.at = { phase: 'starting' }
    this.live = this.#liveDocument(null)
    this.unfollow = () => {}
    this.dashboard = options.dashboard ? new Dashboard(this.live, { banner: () => this.doc ? sweepBannerHtml(this.doc, this.at) : '' }) : null
    this.sweepMetrics = options.metrics || options.metricsPush ? new SweepMetrics() : null
    this.endpoint = options.metrics ? new MetricsEndpoint(this.sweepMetrics) : null
    this.pusher = options.metricsPush
      ? new MetricsPusher(options.metricsPush, { registries: () => this.sweepMetrics.registries(), warn: (line) => err.write(`${line}\n`) })
      : null
  }

  /**
   * The sweep this view shows (made or read once the addresses are bound).
   * @param {Record<string, any>} doc
   */
  setDoc (doc) {
    this.doc = doc
    this.live = this.#liveDocument(null)
    this.dashboard?.follow(this.live)
    this.sweepMetrics?.setDoc(doc)
  }

  /**
   * What the sweep runner tells (lib/sweep/session.js): 'load', 'loaded', 'start', 'done'.
   * @param {string} name
   * @param {any} info
   * @param {any} [plan] the run's plan, for 'start'
   */
  event (name, info, plan) {
    switch (name) {
      case 'load':
        this.at = { phase: 'load', axis: info.axis, size: info.size }
        break
      case 'start':
        this.at = { phase: 'run', order: info.run.order, position: info.position, total: info.total, repeat: info.run.repeat, cell: info.run.cell, text: info.text, leftS: info.leftS, startedAt: Date.now() }
        // a fresh live view per run: the page gets it whole
        this.live = this.#liveDocument(plan)
        break
      case 'done':
        this.at = { ...this.at, phase: 'between' }
        break
      default:
        return
    }
    this.sweepMetrics?.at(this.at)
    if (name === 'start') this.dashboard?.follow(this.live)
    else this.dashboard?.refresh()
  }

  /**
   * A run of the sweep begins: follow it.
   * @param {import('../engine/run-handle.js').RunHandle} run
   * @param {{ types?: string[], sampler?: any, waits?: any }} [extras] waits: the wait sampler's counts per interval
   */
  attach (run, extras = {}) {
    this.unfollow()
    const at = this.at
    const metrics = this.sweepMetrics
      ? new RunMetrics({ run_id: `${this.doc.id.slice(0, 8)}-${(at.order ?? 0) + 1}`, label: this.doc.label ?? '', shard: '', workload: this.doc.workload, cell: at.text ?? '' })
      : null
    this.sweepMetrics?.follow(metrics)
    this.unfollow = followLiveRun(run, { live: this.live, metrics, dashboard: this.dashboard, pusher: this.pusher }, extras)
  }

  /**
   * One run of the sweep as an output of the run session: followed from its start, at rest once
   * it ended (its results written or not).
   * @returns {import('../session/output.js').Output}
   */
  runOutput () {
    return {
      name: 'live',
      needs: { sampler: true },
      start: ({ run, types, sampler, waits }) => this.attach(run, { types, sampler, waits }),
      close: () => this.runEnded()
    }
  }

  /** The run ended (results written or not): its page stays until the next one begins. */
  runEnded () {
    this.unfollow()
    this.unfollow = () => {}
    this.live.finish()
    this.dashboard?.refresh()
    // the run's gauges at rest and the sweep's count of runs done
    this.pusher?.interval()
  }

  /**
   * The sweep ended (finished, interrupted or stopped by a failure): its report to the pages
   * open and to --dashboard-out. Resolves with that file, or null.
   * @param {string} html the sweep's report (lib/report/sweep)
   * @returns {Promise<string|null>}
   */
  async finish (html) {
    this.runEnded()
    this.at = { phase: 'finished' }
    this.sweepMetrics?.at(this.at)
    await this.pusher?.end()
    if (!this.dashboard) return null
    this.dashboard.finish(html)
    if (this.options.dashboardOut) await writeFileAtomic(this.options.dashboardOut, html)
    return this.options.dashboardOut ?? null
  }

  async close () {
    this.unfollow()
    await Promise.all([this.dashboard?.close(), this.endpoint?.close(), this.pusher?.close()])
  }

  #liveDocument (plan) {
    return new LiveDocument({
      workload: plan?.resultName ?? plan?.workload ?? this.doc?.workload ?? 'sweep',
      label: plan?.label ?? this.doc?.label ?? null,
      intervalS: plan?.intervalS ?? 1,
      startTime: this.now().toISOString(),
      shard: null
    })
  }
}

/**
 * The endpoint's figures: the sweep's gauges, then the current run's metrics (none before the
 * first run). Each run has its own registry, so its counters start at zero under its own run_id.
 */
class SweepMetrics {
  constructor () {
    this.doc = null
    this.runMetrics = null
    const r = this.registry = new client.Registry()
    const gauge = (name, help) => new client.Gauge({ name, help, registers: [r] })
    this.runs = gauge('pgload_sweep_runs', 'Runs the sweep plans in all')
    this.done = gauge('pgload_sweep_runs_done', 'Runs of the sweep done so far')
    this.position = gauge('pgload_sweep_run_position', 'The current run\'s place in the sweep, from 1 (0: none running)')
  }

  /** @param {Record<string, any>} doc */
  setDoc (doc) {
    this.doc = doc
    this.registry.setDefaultLabels({ sweep_id: doc.id.slice(0, 8), label: doc.label ?? '', workload: doc.workload })
    this.at({ phase: 'starting' })
  }

  /** @param {Record<string, any>} at */
  at (at) {
    if (!this.doc) return
    this.runs.set(this.doc.runs.length)
    this.done.set(this.doc.runs.filter((r) => r.status === 'done').length)
    this.position.set(at.phase === 'run' ? at.position : 0)
  }

  /** @param {RunMetrics|null} metrics */
  follow (metrics) { this.runMetrics = metrics }

  /** The registries of what /metrics serves: the sweep's, then the current run's. */
  registries () { return this.runMetrics ? [this.registry, this.runMetrics.registry] : [this.registry] }

  async text () {
    const own = await this.registry.metrics()
    return this.runMetrics ? `${own}\n${await this.runMetrics.text()}` : own
  }

  get contentType () { return this.registry.contentType }
}
