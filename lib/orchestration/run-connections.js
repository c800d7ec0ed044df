// How a run opens its connections, on the main thread and in every worker thread alike: the
// plan's driver and protocol, a refusal explained in one line.

import { openConnection } from '../db/connection.js'
import { openLeanConnection } from '../db/lean-connection.js'
import { explainConnectError, resolveTarget } from '../server/target/resolve-target.js'

/**
 * The run's connection opener.
 * @param {{ driver: string, protocol: import('../db/connection.js').Protocol }} plan
 * @param {import('../db/connection.js').Target} target
 * @returns {() => Promise<import('../db/connection.js').PgConnection>}
 */
export function runConnectionOpener (plan, target) {
  const open = plan.driver === 'pg' ? openConnection : openLeanConnection
  const protocol = plan.protocol
  return async () => {
    try {
      return await open(target, { protocol })
    } catch (err) {
      throw explainConnectError(err, target)
    }
  }
}

/**
 * The openers of the run's other targets (--route), in the plan's order (routeTargets).
 * @param {{ driver: string, protocol: import('../db/connection.js').Protocol, routeTargets?: { url: string }[] }} plan
 * @param {Record<string, string|undefined>} [env] PG* variables fill what a URL leaves out, as for --url
 * @returns {(() => Promise<import('../db/connection.js').PgConnection>)[]}
 */
export function routeOpeners (plan, env = process.env) {
  return (plan.routeTargets ?? []).map((t) => runConnectionOpener(plan, resolveTarget({ url: t.url, env })))
}
