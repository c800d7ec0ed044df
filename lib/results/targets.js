// The results' `targets` section (--route): per server the run used, its transaction types and
// their transactions, failures and latency (their histograms merged exactly), and what that
// server counted itself over the run (lib/server/stats/target-stats.js).

import { mergeHistograms, latencySummaryMs } from '../metrics/histogram.js'
import { ratePerS } from '../metrics/figures.js'
import { redact } from '../server/target/resolve-target.js'

/**
 * @param {{ routes?: { type: string, target: string }[], routeTargets?: { name: string, url: string }[] }} options the plan
 * @param {Record<string, any>} transactions the results' per-type figures
 * @param {{ mainName: string, mainServer: string, types: string[], typeTargets: readonly number[], durationS: number, server?: Record<string, object|null> }} p
 *   mainName: the run's own server's name; typeTargets: per type, 0 the run's own server, i the
 *   plan's routeTargets[i - 1]
 * @returns {Record<string, object>|null} null for a run without routes
 */
export function targetsSection (options, transactions, { mainName, mainServer, types, typeTargets, durationS, server = {} }) {
  if (!options.routeTargets?.length) return null
  const names = [mainName, ...options.routeTargets.map((t) => t.name)]
  const servers = [mainServer, ...options.routeTargets.map((t) => redact(t.url))]
  const out = {}
  names.forEach((name, i) => {
    const own = types.filter((_, k) => (typeTargets[k] ?? 0) === i)
    const figures = own.map((t) => transactions[t]).filter(Boolean)
    const count = figures.reduce((n, t) => n + t.count, 0)
    const errors = {}
    for (const t of figures) for (const [code, n] of Object.entries(t.errors ?? {})) errors[code] = (errors[code] ?? 0) + n
    const h = mergeHistograms(figures.map((t) => t.histogram))
    out[name] = {
      server: servers[i],
      types: own,
      count,
      failed: figures.reduce((n, t) => n + (t.failed ?? 0), 0),
      tps: ratePerS(count, durationS),
      latencyMs: latencySummaryMs(h),
      errors,
      stats: server[name] ?? null
    }
  })
  return out
}
