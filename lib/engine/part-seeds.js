// Generators of a run cut into worker threads: each terminal draws its type choice and its
// keying and think times from its own generators, derived from (seed, terminal number), so the
// same --seed gives the same transactions whatever the number of threads; each thread has its
// own --rate arrival stream (independent Poisson streams add up to one at the summed rate).
// One event loop keeps pgbench's run-wide generators instead (lib/random/seeding.js).

import { Prng } from '../random/prng.js'

const M64 = (1n << 64n) - 1n
// odd constants that keep the streams of one seed apart (Prng.fromSeed mixes them further)
const CHOOSE = 0x9E3779B97F4A7C15n
const WAIT = 0xBF58476D1CE4E5B9n
const ARRIVALS = 0x94D049BB133111EBn

/** @param {bigint} seed @param {bigint} salt @param {number} n */
const streamSeed = (seed, salt, n) => (BigInt(seed) * salt + BigInt(n + 1) * 0x2545F4914F6CDD1Dn + salt) & M64

/**
 * A terminal's own generators.
 * @param {bigint} seed the run's --seed
 * @param {number} id the terminal's number in the run
 * @returns {{ choose: Prng, wait: Prng }}
 */
export function terminalStreams (seed, id) {
  return { choose: Prng.fromSeed(streamSeed(seed, CHOOSE, id)), wait: Prng.fromSeed(streamSeed(seed, WAIT, id)) }
}

/**
 * The --rate arrival stream of one worker thread.
 * @param {bigint} seed
 * @param {number} part the thread's index
 * @returns {Prng}
 */
export function arrivalStream (seed, part) {
  return Prng.fromSeed(streamSeed(seed, ARRIVALS, part))
}
