// `pgload verify <workload>`: run a workload's consistency checks (TPC-C: the twelve conditions
// of clause 3.3.2), print each as pass/fail with its violation count; exit 1 on any failure.

import { PgloadError } from '../errors.js'
import { workloadNames, loadWorkload } from '../../workloads/index.js'
import { connectTarget } from '../server/target/connect-target.js'

export const command = 'verify <workload>'
export const describe = 'Check a loaded workload\'s consistency (e.g. verify tpcc: the 12 conditions of TPC-C 3.3.2)'

/** @param {import('yargs').Argv} y */
export function builder (y) {
  return y.positional('workload', { describe: `built-in workload: ${workloadNames.join(', ')}`, type: 'string' })
    .option('url', { type: 'string', describe: 'server: libpq URI or key=value (default: PG* environment, else the embedded server)' })
    .example('$0 verify tpcc', 'all twelve TPC-C consistency conditions on the embedded server')
}

/**
 * Format check results as aligned lines.
 * @param {{ name: string, pass: boolean, violations: number, note: string, skipped?: boolean }[]} checks
 * @returns {string}
 */
export function formatChecks (checks) {
  const width = Math.max(...checks.map(c => c.name.length))
  return checks.map(c => {
    const verdict = c.skipped ? 'skip' : c.pass ? 'pass' : 'FAIL'
    const detail = c.skipped ? c.note : `${c.violations} violation${c.violations === 1 ? '' : 's'}`
    return `${verdict}  ${c.name.padEnd(width)}  ${detail}`
  }).join('\n') + '\n'
}

/**
 * Run `verify` for a workload.
 * @param {{ workload: string, url?: string, env?: Record<string, string|undefined>,
 *   stdout?: { write(s: string): any }, log?: any }} opts
 * @returns {Promise<{ checks: object[], pass: boolean }>}
 */
export async function verifyCommand ({ workload, url, env = process.env, stdout = process.stdout, log }) {
  if (!workloadNames.includes(workload)) {
    throw new PgloadError(`unknown workload ${JSON.stringify(workload)}: valid workloads are ${workloadNames.join(', ')}`, { code: 'BAD_OPTION' })
  }
  const mod = await loadWorkload(workload)
  if (typeof mod?.verify !== 'function') throw new PgloadError(`workload ${workload} has no consistency checks`, { code: 'BAD_OPTION' })
  const session = await connectTarget({ url, env, log })
  let result
  try {
    result = await mod.verify({ conn: session.conn, target: session.target, log }, {})
  } finally {
    await session.release()
  }
  stdout.write(formatChecks(result.checks))
  const failed = result.checks.filter(c => !c.pass)
  if (failed.length > 0) {
    throw new PgloadError(`${workload}: ${failed.length} of ${result.checks.length} consistency checks failed`, { code: 'CHECK_FAILED', exitCode: 1 })
  }
  stdout.write(`${workload}: all ${result.checks.filter(c => !c.skipped).length} checks passed${result.checks.some(c => c.skipped) ? ` (${result.checks.filter(c => c.skipped).length} not applicable)` : ''}\n`)
  return { checks: result.checks, pass: true }
}

/** @param {any} argv */
export async function handler (argv) {
  await verifyCommand({ workload: argv.workload, url: argv.url })
}

export default { command, describe, builder, handler }
