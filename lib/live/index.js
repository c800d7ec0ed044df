// Watching a run as it happens: the live dashboard (--dashboard), the Prometheus endpoint
// (--metrics) and the push to a remote-write receiver (--metrics-push). The servers are bound
// before the run starts; all subscribe to its events and to the server sampler's readings;
// nothing here runs per transaction.

import { randomUUID } from 'node:crypto'
import { LiveDocument } from './live-document.js'
import { Dashboard } from './dashboard.js'
import { RunMetrics } from './run-metrics.js'
import { MetricsEndpoint } from './metrics-endpoint.js'
import { MetricsPusher } from './metrics-push.js'
import { followRunEvents, runShape } from './run-events.js'
import { followScenarioRuns } from './scenario-feed.js'
import { finalReportHtml } from './dashboard-page.js'
import { formatListenAddress, isLoopback } from '../options/listen-address.js'
import { writeFileAtomic } from '../atomic-write.js'

/**
 * @typedef {object} LiveView
 * @property {(run: import('../engine/run-handle.js').RunHandle, with?: { types?: string[], sampler?: any, waits?: any }) => void} attach
 *   follow a run through its handle; types: the workload's transaction names (the caller knows
 *   them), sampler: the server statistics sampler, waits: the wait sampler's counts per interval
 * @property {(results: any) => Promise<string|null>} finish the final report to the pages open, and
 *   to --dashboard-out; resolves with that file, or null
 * @property {() => Promise<void>} close stop serving
 * @property {{ dashboard?: string, metrics?: string }} urls
 */

/**
 * Bind what the plan asks for (nothing: null). Throws one line when an address cannot be bound.
 * @param {import('../plan/resolve.js').RunPlan} plan
 * @param {{ err?: { write(s: string): any }, now?: () => Date, atEnd?: string }} [opts] err: where the addresses are
 *   announced; atEnd: what the announcement says the page does once the run has ended
 * @returns {Promise<LiveView|null>}
 */
export async function startLive (plan, { err, now = () => new Date(), atEnd = 'then the report' }) {
  if (!plan.dashboard && !plan.metrics && !plan.metricsPush) return null
  const shard = plan.shard ? { index: plan.shard.index, count: plan.shard.count } : null
  const live = new LiveDocument({ workload: plan.resultName ?? plan.workload, label: plan.label ?? null, intervalS: plan.intervalS, startTime: now().toISOString(), shard })
  const dashboard = plan.dashboard ? new Dashboard(live) : null
  const metrics = plan.metrics || plan.metricsPush
    ? new RunMetrics({ run_id: plan.shard?.runId ?? randomUUID().slice(0, 8), label: plan.label ?? '', shard: shard ? String(shard.index) : '', workload: live.meta.workload }, { scenarios: Array.isArray(plan.scenarios) })
    : null
  const endpoint = plan.metrics ? new MetricsEndpoint(metrics) : null
  const pusher = plan.metricsPush ? new MetricsPusher(plan.metricsPush, { registries: () => [metrics.registry], warn: (line) => err.write(`${line}\n`) }) : null
  const urls = {}
  try {
    if (dashboard) urls.dashboard = `http://${formatListenAddress(await dashboard.listen(plan.dashboard))}/`
    if (endpoint) urls.metrics = `http://${formatListenAddress(await endpoint.listen(plan.metrics))}/metrics`
  } catch (error) {
    await dashboard?.close()
    await endpoint?.close()
    throw error
  }
  if (dashboard) {
    err.write(`pgload: dashboard at ${urls.dashboard} (live until the run ends, ${atEnd})${shard ? `; shard ${shard.index} of ${shard.count}: this shard's part only` : ''}\n`)
    if (!isLoopback(plan.dashboard.host)) err.write(`pgload: the dashboard listens on ${plan.dashboard.host}, not only this machine: anyone who reaches it sees the run's figures (no password, address or environment)\n`)
  }
  if (endpoint) {
    err.write(`pgload: Prometheus metrics at ${urls.metrics}\n`)
    if (!isLoopback(plan.metrics.host)) err.write(`pgload: the metrics endpoint listens on ${plan.metrics.host}, not only this machine\n`)
  }
  if (pusher) err.write(`pgload: pushing metrics to ${pusher.shownUrl} at each interval and at the end\n`)
  let unfollow = () => {}
  return {
    urls,
    attach (run, extras = {}) {
      // a scenario run's handle: each scenario's run as it starts (lib/live/scenario-feed.js)
      if (extras.scenarios) {
        // and the scenario run's one server statistics sampler
        const unsample = followSampler(extras.sampler, { live, metrics })
        const unfollowRuns = followScenarioRuns(run, { live, metrics, dashboard, pusher }, { scenarios: extras.scenarios, intervalS: plan.intervalS })
        unfollow = () => { unsample(); unfollowRuns() }
      } else {
        unfollow = followLiveRun(run, { live, metrics, dashboard, pusher }, extras)
      }
    },
    async finish (results) {
      unfollow()
      live.finish()
      metrics?.finish()
      await pusher?.end(results)
      if (!dashboard) return null
      const html = finalReportHtml(results)
      dashboard.finish(html)
      if (plan.dashboardOut) await writeFileAtomic(plan.dashboardOut, html)
      return plan.dashboardOut ?? null
    },
    async close () {
      unfollow()
      await Promise.all([dashboard?.close(), endpoint?.close(), pusher?.close()])
    }
  }
}

/**
 * The server statistics sampler's readings to the live document's charts and the metrics.
 * @param {any} sampler null: none
 * @param {{ live: LiveDocument, metrics: RunMetrics|null }} to
 * @returns {() => void} stop following
 */
function followSampler (sampler, { live, metrics }) {
  if (!sampler) return () => {}
  live.setSampler(sampler)
  return metrics ? sampler.onSample((entry, s) => metrics.addServerSample(entry, s)) : () => {}
}

/**
 * Feed one run's events (and its server sampler's readings) to a live document, the metrics,
 * the dashboard and the metrics pusher; returns the unsubscribe. The same for a run and for each
 * run of a sweep.
 * @param {import('../engine/run-handle.js').RunHandle} run
 * @param {{ live: LiveDocument, metrics: RunMetrics|null, dashboard: Dashboard|null, pusher?: MetricsPusher|null }} to
 * @param {{ types?: string[], sampler?: any, waits?: import('../waits/interval-classes.js').IntervalClasses|null }} [extras]
 *   waits: the wait sampler's counts per interval (lib/waits/interval-classes.js)
 * @returns {() => void}
 */
export function followLiveRun (run, { live, metrics, dashboard, pusher = null }, { types = [], sampler = null, waits = null } = {}) {
  const shape = runShape(run, types)
  live.setShape(shape)
  metrics?.setShape(shape)
  const unsample = followSampler(sampler, { live, metrics })
  live.setWaits(waits)
  const unfollow = followRunEvents(run, {
    started (e) { pusher?.start(e) },
    warmup (e) {
      live.addWarmup(e)
      metrics?.addWarmup(e)
      dashboard?.changed()
    },
    interval (e) {
      live.addInterval(e)
      metrics?.addInterval(e)
      if (waits) metrics?.addWaits(waits.intervals[e.index])
      pusher?.interval(e)
      // the ragged last interval: the final report (or a sweep's next run) follows at once
      if (!e.final) dashboard?.changed()
    },
    stage (e) {
      live.setStage(e)
      pusher?.stage(e)
      dashboard?.changed()
    },
    status (s) {
      if (s.state !== 'stopping' && s.state !== 'aborting') return
      live.setStatus(s)
      dashboard?.changed()
    },
    finished () { metrics?.finish() }
  })
  return () => { unfollow(); unsample() }
}
