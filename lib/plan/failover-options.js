// --failover: the run is measured through a failover or switchover (lib/failover), and it waits
// longer for a new primary than a plain run waits for its server.

import { booleanOption } from './checks.js'

/** s: --reconnect-window with --failover when not given (a promotion with its checks takes a while) */
export const FAILOVER_RECONNECT_WINDOW_S = 60

/**
 * @param {(key: string) => any} opt the caller's input by plan key
 * @param {{ reconnectWindowS: number }} plan the plan so far
 * @returns {{ failover: boolean, reconnectWindowS: number }}
 */
export function failoverOptions (opt, plan) {
  const failover = booleanOption(opt('failover'), '--failover', false)
  const given = opt('reconnectWindowS') !== undefined
  return { failover, reconnectWindowS: failover && !given ? FAILOVER_RECONNECT_WINDOW_S : plan.reconnectWindowS }
}
