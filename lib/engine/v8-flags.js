// V8 settings for the driver's hot path, applied by the command line (bin/pgload.js) before a
// run. Each statement goes through a chain of small functions (reply parser → reader →
// interpreter → connection → message writer). With V8's default inlining budget, 920 bytes of
// bytecode inlined into one optimized function, TurboFan stops inlining that chain half-way, and
// every call left costs its own cold-cache misses against a server that evicts the client's
// caches between replies. A budget of 3000 measured 1.0-1.6 us less client CPU per transaction
// on pgbench's write scripts (perf samples of V8's generated code, docs/architecture.md).

import { setFlagsFromString } from 'node:v8'
import { nodeOptionGiven } from '../node-options.js'

/** The flags, each `--name=value`. */
export const DRIVER_V8_FLAGS = Object.freeze(['--max-inlined-bytecode-size-cumulative=3000'])

/**
 * Set the driver's V8 flags, except those the user set (node's command line or NODE_OPTIONS).
 * Must run before the hot path is optimized; flags V8 reads at optimization time only.
 * @param {{ execArgv?: string[], nodeOptions?: string }} [from] where the user's flags are
 * @returns {string[]} the flags set
 */
export function applyDriverV8Flags ({ execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '' } = {}) {
  const set = []
  for (const flag of DRIVER_V8_FLAGS) {
    if (nodeOptionGiven(flag.slice(0, flag.indexOf('=')), { execArgv, nodeOptions })) continue
    setFlagsFromString(flag)
    set.push(flag)
  }
  return set
}
