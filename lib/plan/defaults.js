// The run defaults (from the option table, lib/options/run-option-table.js) and the precedence
// rule that applies them: an option given by the caller (command line or library) > the config
// layer > the workload's own defaults > DEFAULTS.

import { planDefaults } from '../options/run-option-table.js'

/**
 * Defaults of a run, each with its unit in its name, from the option table (and the few no option
 * sets). The workload modules may override any of them with their `runDefaults` (TPC-C runs for a
 * duration); connection settings come from the PG* variables when the run connects
 * (lib/server/target/resolve-target.js), so they are not here.
 */
export const DEFAULTS = Object.freeze(planDefaults())

/** The options that set how long a run lasts: one layer decides both, never a mix of layers. */
const LENGTH = ['durationS', 'transactionsPerClient']

/**
 * The precedence rule: an option's value comes from the first layer that gives it (neither
 * undefined nor null; `rate: 0` is a value), else it is not given and DEFAULTS applies. The
 * length of the run (a duration or a count per client) comes from one layer as a pair.
 * @param {(Record<string, any>|undefined)[]} layers highest first: input, config, workload defaults
 * @returns {(key: string) => any} the given value of an option, or undefined
 */
export function precedence (layers) {
  const has = (layer, key) => layer?.[key] !== undefined && layer?.[key] !== null
  const lengthLayer = layers.find((l) => LENGTH.some((k) => has(l, k)))
  return (key) => {
    const layer = LENGTH.includes(key) ? lengthLayer : layers.find((l) => has(l, key))
    return has(layer, key) ? layer[key] : undefined
  }
}
