// `pgload store FILES...`: import results files and sweep documents into the results database,
// idempotently, one line per file. Also the store after `run --store` and `ab --store`.

import { PgloadError } from '../errors.js'
import { createLogger } from '../log.js'
import { storeFiles } from '../store/store-files.js'

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
 * Store files; a line per file on `out` (errors on `err`). Throws after all files when any failed;
 * one file that failed is its own error, in one line.
 * @param {{ files: string[], resultsUrl?: string|null }} opts
 * @param {{ out?: { write(s: string): any }, err?: { write(s: string): any }, env?: Record<string, string|undefined>, log?: any }} [io]
 * @returns {Promise<import('../store/store-files.js').FileStored[]>}
 */
export async function storeCommand (opts, { out = process.stdout, err = process.stderr, env = process.env, log } = {}) {
  const outcomes = await storeFiles(opts.files, {
    resultsUrl: opts.resultsUrl ?? null,
    env,
    log,
    onFile: (o) => { if (!('error' in o)) out.write(`${storedLine(o)}\n`) }
  })
  // an ab directory stands for several files: one file is known only now
  const single = outcomes.length === 1
  if (!single) for (const o of outcomes) if ('error' in o) err.write(`pgload: ${storedLine(o)}\n`)
  const failed = outcomes.filter((o) => 'error' in o).length
  if (failed && single) {
    const { error } = /** @type {{ error: any }} */ (outcomes[0])
    throw error instanceof PgloadError ? error : new PgloadError(storedLine(outcomes[0]), { code: 'STORE_FAILED', cause: error })
  }
  if (failed) {
    const rest = failed === outcomes.length ? '' : '; the others were'
    throw new PgloadError(`${failed} of ${outcomes.length} file${outcomes.length === 1 ? '' : 's'} could not be stored${rest}`, { code: 'STORE_FAILED' })
  }
  return outcomes
}

/**
 * Store the results files a command just wrote (`run --store`, `ab --store`). A failure is a
 * warning line: the files stay as written, and the command's outcome is its own.
 * @param {string[]} files
 * @param {{ resultsUrl?: string }} plan
 * @param {{ err?: { write(s: string): any }, env?: Record<string, string|undefined>, log?: any }} [io]
 * @returns {Promise<boolean>} whether every file was stored
 */
export async function storeWrittenFiles (files, plan, { err = process.stderr, env = process.env, log } = {}) {
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

export const command = 'store <files..>'
export const describe = 'Store results files and sweep documents in the results database (idempotent)'

/** @param {import('yargs').Argv} y */
export function builder (y) {
  return y
    .positional('files', { describe: 'results files (.json, .json.gz), sweep documents (sweep.json) or sweep directories', type: 'string', array: true })
    .option('results-url', { type: 'string', describe: 'the results database: libpq URI or key=value string [default: pgload_results on the embedded server]' })
    .example('$0 store pgload-results/*.json', 'import every results file; files already stored are left as they are')
    .epilogue('exit codes: 0 every file stored (or already stored), 1 a file could not be stored (the others are) or the database is unreachable')
}

/** @param {any} argv */
export async function handler (argv) {
  const resultsUrl = argv.resultsUrl === undefined ? null : String(argv.resultsUrl)
  await storeCommand({ files: [argv.files ?? []].flat().map(String), resultsUrl }, { log: createLogger(argv) })
}

export default { command, describe, builder, handler }
