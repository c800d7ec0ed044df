// pgbench's weighted choice of a script (chooseScript): the engine's transaction types and a
// script workload's scripts are drawn the same way, so a seed picks the same sequence in both.

/**
 * One draw in [0, totalWeight) from the generator, then the first index whose running sum of
 * weights passes it; a weight of 0 is never chosen. Allocates nothing (per transaction).
 * @param {ArrayLike<number>} weights non-negative integers
 * @param {number} totalWeight their sum, at least 1
 * @param {{ int: (min: number, max: number) => number }} prng
 * @returns {number} the chosen index
 */
export function chooseWeighted (weights, totalWeight, prng) {
  let w = prng.int(0, totalWeight - 1)
  let i = 0
  while (w >= weights[i]) { w -= weights[i]; i++ }
  return i
}
