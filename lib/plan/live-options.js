// The run plan's options of watching a run as it goes: the live dashboard (--dashboard,
// --dashboard-out), the Prometheus endpoint (--metrics), the push to a remote-write receiver
// (--metrics-push, --metrics-push-header) and the server part of the progress line
// (--progress-server). Checked here; lib/live serves them.

import { PgloadError } from '../errors.js'
import { parseListenAddress } from '../options/listen-address.js'
import { parseOutputPath } from '../options/parse.js'
import { parseMetricsPush } from './metrics-push-option.js'

/** Where --dashboard listens when it is given without an address (k6's dashboard port). */
export const DASHBOARD_DEFAULT = Object.freeze({ host: '127.0.0.1', port: 5665 })

const bad = (message) => new PgloadError(message, { code: 'BAD_OPTION' })

/**
 * @param {(key: string) => any} opt the precedence rule's reader (lib/plan/defaults.js)
 * @returns {{ dashboard?: { host: string, port: number }, dashboardOut?: string, metrics?: { host: string, port: number },
 *   metricsPush?: import('./metrics-push-option.js').MetricsPush, progressServer: boolean }}
 */
export function liveOptions (opt) {
  const given = opt('dashboard')
  const dashboard = given === undefined || given === false
    ? undefined
    : parseListenAddress(given === true ? '' : given, '--dashboard', DASHBOARD_DEFAULT)
  const dashboardOut = parseOutputPath(opt('dashboardOut'), '--dashboard-out')
  if (dashboardOut !== undefined && !dashboard) throw bad('--dashboard-out goes with --dashboard: it saves the page the dashboard shows at the end')
  const metrics = opt('metrics') === undefined ? undefined : parseListenAddress(opt('metrics'), '--metrics')
  if (dashboard && metrics && dashboard.port !== 0 && dashboard.port === metrics.port && dashboard.host === metrics.host) {
    throw bad(`--dashboard and --metrics cannot both listen on ${metrics.host}:${metrics.port}`)
  }
  const metricsPush = parseMetricsPush(opt('metricsPush'), opt('metricsPushHeaders'))
  return { dashboard, dashboardOut, metrics, metricsPush, progressServer: onOff(opt('progressServer')) }
}

function onOff (value) {
  if (value === undefined || value === null || value === true || value === 'on') return true
  if (value === false || value === 'off') return false
  throw bad(`--progress-server must be on or off, got ${JSON.stringify(value)}`)
}
