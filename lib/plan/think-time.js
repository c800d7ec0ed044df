// --think-time, parsed in one place: the plan keeps its text (plain data that crosses threads),
// the check at resolve time and the engine settings of every thread read it through this.

import { parseDistribution } from '../options/distribution.js'

/**
 * The think-time distribution of a plan's text, or null without one; throws the flag's one-line error.
 * @param {string|undefined|null} spec
 * @returns {import('../options/distribution.js').Distribution|null}
 */
export function thinkTimeDistribution (spec) {
  return spec === undefined || spec === null ? null : parseDistribution(spec, '--think-time')
}
