// The one interrupt policy of every command that runs benchmarks (run, capacity, sweep, ab,
// and init's load): the first Ctrl-C (SIGINT) or SIGTERM stops with the grace (a run finishes
// its transactions in flight; a sequence starts nothing more), any later one aborts at once;
// what was measured is written either way, and the exit status says which signal came: 130 after
// SIGINT, 143 when a SIGTERM was among them (128 + the signal number, as shells report it),
// before the run started as well as during it. This module is the only one in lib/ that listens
// for the signals.

import { PgloadError } from '../errors.js'

/** Exit status of a command stopped by a signal. */
export const INTERRUPT_EXIT_CODES = Object.freeze({ SIGINT: 130, SIGTERM: 143 })

/**
 * @typedef {object} InterruptTrap
 * @property {(signal?: 'SIGINT'|'SIGTERM') => void} interrupt what a signal does (tests call it)
 * @property {number} count signals so far
 * @property {boolean} terminated a SIGTERM was among them
 * @property {number} exitCode 143 after a SIGTERM, else 130
 * @property {() => void} release stop listening
 */

/**
 * Listen for SIGINT and SIGTERM until release(). Each signal calls `onInterrupt({ count, signal })`:
 * count 1 asks to stop gracefully, any later one to abort.
 * @param {(e: { count: number, signal: 'SIGINT'|'SIGTERM' }) => void} onInterrupt
 * @param {{ on?: boolean }} [opts] on: false listens to nothing (tests and library callers call interrupt())
 * @returns {InterruptTrap}
 */
export function trapInterrupts (onInterrupt, { on = true } = {}) {
  let count = 0
  let terminated = false
  const interrupt = (signal = 'SIGINT') => {
    count++
    if (signal === 'SIGTERM') terminated = true
    onInterrupt({ count, signal })
  }
  if (on) { process.on('SIGINT', interrupt); process.on('SIGTERM', interrupt) }
  return {
    interrupt,
    get count () { return count },
    get terminated () { return terminated },
    get exitCode () { return terminated ? INTERRUPT_EXIT_CODES.SIGTERM : INTERRUPT_EXIT_CODES.SIGINT },
    release () {
      if (on) { process.off('SIGINT', interrupt); process.off('SIGTERM', interrupt) }
    }
  }
}

/**
 * The error that ends an interrupted command, once what was measured is written.
 * @param {string} message e.g. 'the run was interrupted; the results cover what was measured'
 * @param {{ terminated: boolean }} trap
 * @returns {PgloadError}
 */
export function interruptedError (message, trap) {
  return new PgloadError(message, { code: 'INTERRUPTED', exitCode: trap.terminated ? INTERRUPT_EXIT_CODES.SIGTERM : INTERRUPT_EXIT_CODES.SIGINT })
}
