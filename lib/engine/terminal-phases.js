// Where a terminal is in its cycle, and the terminals counted by phase for the progress line.
// Sleeping phases hold no promise: the scheduler wakes the terminal itself, so 100,000 thinking
// terminals allocate nothing while they wait.

export const PH_IDLE = 0
export const PH_FIRST = 1 // the staggered first wait of a paced terminal
export const PH_ARRIVAL = 2 // --rate: waiting for the scheduled arrival
export const PH_KEYING = 3 // TPC-C keying time before the transaction
export const PH_THINK = 4 // think time after the transaction
export const PH_QUEUED = 5 // waiting for a pooled connection
export const PH_RUNNING = 6 // a transaction is running
export const PH_DONE = 7
export const PH_PAUSED = 8 // --clients-stages: not among the active terminals now
export const PH_PARKED = 9 // --stages: free, while another free terminal holds the next arrival

/**
 * Terminals by state, for the progress line: one pass over them, when a line is printed.
 * The staggered first wait counts as thinking (the terminal has not keyed yet).
 * @param {ArrayLike<{ phase: number }>} terminals
 * @returns {{ keying: number, thinking: number, running: number, waiting: number, finished: number, paused: number }}
 *   running: in a transaction; waiting: for a pooled connection; finished: done with the run;
 *   paused: outside the active terminals of --clients-stages
 */
export function countStates (terminals) {
  let keying = 0; let thinking = 0; let running = 0; let waiting = 0; let finished = 0; let paused = 0
  for (let i = 0; i < terminals.length; i++) {
    const p = terminals[i].phase
    if (p === PH_KEYING) keying++
    else if (p === PH_PAUSED) paused++
    else if (p === PH_THINK || p === PH_FIRST) thinking++
    else if (p === PH_RUNNING) running++
    else if (p === PH_QUEUED) waiting++
    else if (p === PH_DONE) finished++
  }
  return { keying, thinking, running, waiting, finished, paused }
}
