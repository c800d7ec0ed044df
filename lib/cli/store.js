// `pgload store FILES...`: import results files and sweep documents into the results database,
// idempotently, one line per file. Also the store after `run --store` and `ab --store`.

import { PgloadError } from '../errors.js'
import { createLogger } from '../log.js'
import { storeFiles } from '../store/store-files.js'
import { storedLine } from '../store/store-output.js'

export { storedLine, storeWrittenFiles } from '../store/store-output.js'

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
