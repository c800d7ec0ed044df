// TPC-C's non-uniform random numbers (clause 2.1.6), the customer last names built from
// syllables (clause 4.3.2.3) and the rule tying the run-time C for C_LAST to the load-time one.

import { PgloadError } from '../../lib/errors.js'

/** A of NURand(A, x, y) per field (clause 2.1.6). */
export const NURAND_A = Object.freeze({ cLast: 255, cId: 1023, olIId: 8191 })

/**
 * NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x
 * @param {{ int(lo: number, hi: number): number }} random
 * @param {number} A @param {number} C @param {number} x @param {number} y
 * @returns {number}
 */
export function nurand (random, A, C, x, y) {
  return (((random.int(0, A) | random.int(x, y)) + C) % (y - x + 1)) + x
}

const SYLLABLES = ['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING']

/** The 1,000 last names, indexed by their number 0..999 (three syllables from the digits). */
export const LAST_NAMES = Object.freeze(Array.from({ length: 1000 }, (_, n) =>
  SYLLABLES[Math.floor(n / 100)] + SYLLABLES[Math.floor(n / 10) % 10] + SYLLABLES[n % 10]))

/**
 * Whether a C_LAST run constant may be used with a load constant (clause 2.1.6.1):
 * |C-Load - C-Run| in 65..119, and not 96 nor 112.
 * @param {number} cLoad @param {number} cRun
 */
export function validCRunDelta (cLoad, cRun) {
  const delta = Math.abs(cLoad - cRun)
  return delta >= 65 && delta <= 119 && delta !== 96 && delta !== 112
}

/**
 * Choose the run-time C for C_LAST uniformly among the values in [0..255] that obey
 * clause 2.1.6.1 against the load-time constant.
 * @param {{ int(lo: number, hi: number): number }} random
 * @param {number} cLoad
 * @returns {number}
 */
export function chooseCRun (random, cLoad) {
  const candidates = []
  for (let c = 0; c <= NURAND_A.cLast; c++) if (validCRunDelta(cLoad, c)) candidates.push(c)
  if (candidates.length === 0) {
    throw new PgloadError(`no C_LAST run constant fits the load constant ${cLoad}`, { code: 'TPCC_CLOAD' })
  }
  return candidates[random.int(0, candidates.length - 1)]
}

/**
 * The three run-time constants, shared by every terminal.
 * @param {{ int(lo: number, hi: number): number }} random
 * @param {number} cLoad C_LAST constant recorded at load time
 * @returns {{ cLast: number, cId: number, olIId: number }}
 */
export function runConstants (random, cLoad) {
  return {
    cLast: chooseCRun(random, cLoad),
    cId: random.int(0, NURAND_A.cId),
    olIId: random.int(0, NURAND_A.olIId)
  }
}
