// The ramp-up of a paced run: how the terminals' first transactions are staggered, and how
// long the run goes before the measured window opens so that every terminal has finished its
// first transaction and the New-Order rate is steady (the specification measures in steady state).

import { DEFAULTS, TYPES } from './defaults.js'

/**
 * The mean cycle of one terminal (keying + think per transaction, response time aside), over
 * the deck or the weighted --mix; with the deck, 476 s per 23 cards, 20.7 s a transaction.
 * @param {Record<string, number>} mix percentages per type
 * @param {boolean} standard whether the 23-card deck is dealt
 * @param {number} scale --wait-scale
 * @returns {number} microseconds
 */
export function meanCycleUs (mix, standard, scale) {
  const share = (t) => standard ? DEFAULTS.deck[t] / deckSize() : mix[t] / 100
  let ms = 0
  for (const t of TYPES) ms += share(t) * (DEFAULTS.keyingMs[t] + DEFAULTS.thinkMeanMs[t])
  return ms * 1000 * scale
}

/** The longest keying time of the types that run. */
function maxKeyingUs (mix, standard, scale) {
  let ms = 0
  for (const t of TYPES) if ((standard ? DEFAULTS.deck[t] : mix[t]) > 0) ms = Math.max(ms, DEFAULTS.keyingMs[t])
  return ms * 1000 * scale
}

const deckSize = () => TYPES.reduce((n, t) => n + DEFAULTS.deck[t], 0)

/**
 * The default ramp-up of a spec-paced run: a terminal starts keying its first transaction at
 * most one mean cycle after the start (firstWait), keys at most the longest keying time, and
 * its transaction takes well under the allowance; so by then every terminal has finished one.
 * @param {{ mix: Record<string, number>, standard: boolean, scale: number }} p
 * @returns {number} whole seconds
 */
export function rampUpS ({ mix, standard, scale }) {
  const us = meanCycleUs(mix, standard, scale) + maxKeyingUs(mix, standard, scale) + DEFAULTS.rampUpResponseAllowanceMs * 1000
  return Math.ceil(us / 1e6)
}

/**
 * The wait before a paced terminal starts keying its first transaction: between 0 and one
 * mean cycle, with a density falling linearly to zero at the cycle's end. Simulated with the
 * deck, the New-Order rate is then steady from the end of the ramp-up on; a uniform stagger
 * leaves it about 10 % low for 15 s after it, and the engine's think-time-like stagger
 * (exponential, up to 10 mean think times) would need a ramp-up of over two and a half minutes
 * for every terminal to finish its first transaction.
 * @param {{ mix: Record<string, number>, standard: boolean, scale: number }} p
 * @returns {(random: { double(): number }) => number} microseconds
 */
export function firstWait ({ mix, standard, scale }) {
  const cycleUs = meanCycleUs(mix, standard, scale)
  return (random) => cycleUs * (1 - Math.sqrt(random.double()))
}
