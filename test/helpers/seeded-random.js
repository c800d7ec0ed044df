// Seeded draws for the fuzz tests, on pgload's own PRNG (lib/random/prng.js): the same seed
// gives the same cases on every run and machine.

import { Prng } from '../../lib/random/prng.js'

/**
 * @param {number} seed
 * @returns {{ next: () => number, int: (n: number) => number, pick: <T>(list: T[]) => T }}
 *   next: in [0, 1); int: 0 .. n - 1; pick: one entry of a list
 */
export function seededRandom (seed) {
  const prng = Prng.fromSeed(seed)
  const next = () => prng.double()
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)]
  }
}
