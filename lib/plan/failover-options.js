// --failover: the run is measured through a failover or switchover (lib/failover), and it waits
// longer for a new primary than a plain run waits for its server; --trigger runs the user's
// command that causes one, at --trigger-at.

import { PgloadError } from '../errors.js'
import { booleanOption } from './checks.js'
import { parseDurationS } from '../options/parse.js'
import { rangeOf } from '../options/ranges.js'
import { shownValue } from '../options/shown.js'

/** s: --reconnect-window with --failover when not given (a promotion with its checks takes a while) */
export const FAILOVER_RECONNECT_WINDOW_S = 60

const bad = (message) => new PgloadError(message, { code: 'BAD_OPTION' })

/**
 * @param {(key: string) => any} opt the caller's input by plan key
 * @param {{ reconnectWindowS: number, durationS?: number }} plan the plan so far
 * @returns {{ failover: boolean, reconnectWindowS: number, trigger?: string, triggerAtS?: number }}
 */
export function failoverOptions (opt, plan) {
  const failover = booleanOption(opt('failover'), '--failover', false)
  const given = opt('reconnectWindowS') !== undefined
  return { failover, reconnectWindowS: failover && !given ? FAILOVER_RECONNECT_WINDOW_S : plan.reconnectWindowS, ...triggerOptions(opt, plan) }
}

/** --trigger and --trigger-at: a command, and a time inside the measured window. */
function triggerOptions (opt, plan) {
  const trigger = opt('trigger')
  const at = opt('triggerAtS')
  if (trigger === undefined) {
    if (at !== undefined) throw bad('--trigger-at goes with --trigger: the command to run then')
    return {}
  }
  if (typeof trigger !== 'string' || trigger.trim() === '') throw bad(`--trigger needs a shell command, got ${shownValue(trigger)}`)
  if (plan.durationS === undefined) throw bad('--trigger goes with --duration: a run of -t transactions has no time to run it at')
  const triggerAtS = at === undefined ? plan.durationS / 3 : parseDurationS(at, '--trigger-at', rangeOf('--trigger-at'))
  if (triggerAtS >= plan.durationS) throw bad(`--trigger-at ${shownValue(at)} is not inside the measured ${plan.durationS} s`)
  return { trigger, triggerAtS }
}
