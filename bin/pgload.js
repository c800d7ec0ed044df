#!/usr/bin/env node
// pgload's command line: yargs with an explicit list of command modules; errors become exit codes.

import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { TOOL_VERSION } from '../lib/version.js'
import { commands } from '../lib/cli/index.js'
import { applyDriverV8Flags } from '../lib/engine/v8-flags.js'
import { joinNegativeValues } from '../lib/cli/negative-values.js'
import { cutLongWords } from '../lib/options/shown.js'
import { parserMessage, checkSwitchValues } from '../lib/options/parser-errors.js'

applyDriverV8Flags() // before any run's hot path is optimized (lib/engine/v8-flags.js)

const argv = joinNegativeValues(hideBin(process.argv))
const verbose = argv.includes('--verbose')

function fail (err) {
  const exitCode = typeof err?.exitCode === 'number' ? err.exitCode : 1
  const userError = err?.name === 'PgloadError' || err?.name === 'ClientAbortError' || err?.name === 'YError'
  process.exitCode = exitCode
  // printed by the command in its place already (check's tally under its table): once is enough
  if (userError && err.reported && !verbose) return
  if (userError) process.stderr.write(`pgload: ${err.message}\n`)
  else process.stderr.write(`pgload: internal error: ${String(err?.message ?? err).split('\n')[0]}\n`)
  if (err?.hint) process.stderr.write(`hint: ${err.hint}\n`)
  // a stack helps only whoever debugs pgload: never without --verbose
  if (verbose) process.stderr.write(`${err?.stack ?? ''}\n`)
  else if (!userError) process.stderr.write('hint: run again with --verbose for the stack trace\n')
}

// A reader that went away (pgload ... | head -1): what it did not read is dropped; the command
// goes on, so a run still writes its results file.
process.stdout.on('error', (err) => { if (err.code !== 'EPIPE') fail(err) })

// the last resort for an error outside a command's own handling: one line, as above
if (!verbose) {
  process.on('uncaughtException', (err) => { fail(err); process.exit(process.exitCode) })
  process.on('unhandledRejection', (err) => { fail(err); process.exit(process.exitCode) })
}

const cli = yargs(argv)
  .scriptName('pgload')
  .usage('$0 <command> [options]')
  .version('version', 'print pgload\'s version and exit (pgbench -V)', `pgload ${TOOL_VERSION}`)
  .alias('version', 'V')
  .option('verbose', { type: 'boolean', describe: 'show stack traces and debug logs', global: true })
  .option('log-file', { type: 'string', describe: 'write JSON logs to this file instead of stderr', global: true })
  .strictCommands()
  .strictOptions()
  .demandCommand(1, 'give a command, e.g. pgload run tpcb')
  .recommendCommands()
  .wrap(Math.min(110, process.stdout.columns || 100))
  .fail((msg, err, y) => {
    if (err) throw err
    const e = new Error(cutLongWords(parserMessage(`${msg}`, parserContext())))
    e.name = 'YError'
    e.hint = 'see pgload --help'
    throw e
  })
  .parserConfiguration({ 'populate--': true, 'boolean-negation': true })
  // before validation, with the options of the command being parsed
  .middleware(() => checkSwitchValues(argv, switchNames(cli.getOptions())), true)

/** What parserMessage needs: the arguments, the shown options of the command being parsed, the commands. */
function parserContext () {
  const options = cli.getOptions()
  const hidden = new Set(options.hiddenOptions)
  const optionNames = Object.keys(options.key).filter((n) => !hidden.has(n))
  const commandNames = cli.getInternalMethods().getCommandInstance().getCommands()
  return { args: argv, optionNames: optionNames.flatMap((n) => [n, ...(options.alias[n] ?? [])]), commandNames }
}

/** The boolean options of the command being parsed, with their aliases. */
function switchNames (options) {
  return options.boolean.flatMap((n) => [n, ...(options.alias[n] ?? [])])
}

for (const command of commands) cli.command(command)

try {
  await cli.parseAsync()
} catch (err) {
  fail(err)
}
// Interrupted (Ctrl-C, SIGTERM): what was measured is written; sockets a stalled server still
// holds, or cancel requests under way, must not delay the exit.
if (process.exitCode === 130 || process.exitCode === 143) process.exit()
