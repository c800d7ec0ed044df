// The results database as an output: `run --store`, `capacity --store` and `ab --store` store the
// files a command wrote, and the line `pgload store` prints per file.

import { storeFiles } from './store-files.js'

/**
 * One line for a file's outcome: `FILE: stored (run 12)`, `FILE: already stored (run 12)`,
 * `FILE: stored (sweep ID: 18 runs, 18 stored now, 0 already stored, 2 without a file)`,
 * `compare.json: skipped (a compare verdict, not a run ...)`.
 * @param {import('../store/store-files.js').FileStored} o
 * @returns {string}
 */
export function storedLine (o) {
  if ('error' in o) {
    const msg = String(o.error?.message ?? o.error).split('\n')[0]
    return msg.startsWith(o.file) ? msg : `${o.file}: ${msg}`
  }
  if (o.kind === 'run') return `${o.file}: ${o.status} (run ${o.runId})`
  if (o.kind === 'verdict') return `${o.file}: skipped (a compare verdict, not a run: its runs are stored from their own files)`
  const s = o.sweep
  const runs = s.runsStored + s.runsKnown
  const without = s.skipped.length ? `, ${s.skipped.length} without a file` : ''
  return `${o.file}: ${o.status} (sweep ${s.sweepId}: ${runs} run${runs === 1 ? '' : 's'}, ${s.runsStored} stored now, ${s.runsKnown} already stored${without})`
}

/**
 * Store the results files a command just wrote (`run --store`, `ab --store`). A failure is a
 * warning line: the files stay as written, and the command's outcome is its own.
 * @param {string[]} files
 * @param {{ resultsUrl?: string }} plan
 * @param {{ err: { write(s: string): any }, env?: Record<string, string|undefined>, log?: any }} io err: where its lines go
 * @returns {Promise<boolean>} whether every file was stored
 */
export async function storeWrittenFiles (files, plan, { err, env = process.env, log }) {
  const warn = (msg) => err.write(`pgload: warning: not stored in the results database: ${msg} (the results file is kept)\n`)
  try {
    const outcomes = await storeFiles(files, {
      resultsUrl: plan.resultsUrl ?? null,
      env,
      log,
      onFile: (o) => 'error' in o ? warn(storedLine(o)) : err.write(`pgload: results ${o.status} in the results database (run ${o.runId})\n`)
    })
    return outcomes.every((o) => !('error' in o))
  } catch (e) {
    warn(String(e?.message ?? e).split('\n')[0])
    return false
  }
}

/**
 * `--store` as an output of a run session: the results file stored once it is written.
 * @param {{ resultsUrl?: string }} plan
 * @param {{ err: { write(s: string): any }, env?: Record<string, string|undefined>, log?: any }} io
 * @returns {import('../session/output.js').Output}
 */
export function storeOutput (plan, io) {
  return {
    name: 'store',
    async end (results, { file }) {
      if (file) await storeWrittenFiles([file], plan, io)
    }
  }
}
