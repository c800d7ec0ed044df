// Reads pgbench's own TAP-test cases (../shared/conformance/pgbench, data kept outside the
// project) and turns them into what pgload's tests need: regexes, scripts, pgload argv.

import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))
export const CORPUS_DIR = process.env.PGLOAD_PGBENCH_CORPUS ?? resolve(here, '../../../shared/conformance/pgbench')
export const corpusPresent = existsSync(join(CORPUS_DIR, 'cases.json'))

/** @returns {any[]} the script cases, or [] when the corpus is absent */
export function loadCases () {
  return corpusPresent ? JSON.parse(readFileSync(join(CORPUS_DIR, 'cases.json'), 'utf8')) : []
}

/** @returns {any[]} the command-line cases, or [] */
export function loadCliCases () {
  const f = join(CORPUS_DIR, 'cli-cases.json')
  return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : []
}

/** A Perl regex of the corpus as a JS RegExp; `^$` means an empty stream (Perl's $ allows a final newline). */
export function toRegExp ({ pattern, flags }) {
  if (pattern === '^$') return /^\n?$/
  return new RegExp(pattern.replace(/pgbench:/g, 'pgload:'), flags.replace(/[^smi]/g, ''))
}

export function scriptText (file) {
  return readFileSync(join(CORPUS_DIR, file))
}

/** The -M value of a case's argv (pgbench's default is simple). */
export function protocolOf (argv) {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '-M' || a === '--protocol') return argv[i + 1]
    if (a.startsWith('--protocol=')) return a.slice(11)
    if (a.startsWith('-M') && a.length > 2) return a.slice(2)
  }
  return 'simple'
}

const SHORT_WITH_VALUE = new Set(['t', 'c', 'j', 'M', 'D', 'f', 'b', 's', 'T', 'R', 'L', 'P'])
const LONG_RENAMES = { '--client': '--clients', '--time': '--duration', '--no-vacuum': '-n' }

/**
 * pgbench's argv as `pgload run` arguments: `{dir}` resolved, glued short values split,
 * `-Dx=y` as `--define x=y`, `--client` as `--clients`, and pgbench's default `-M simple`
 * made explicit (pgload's default is prepared).
 * @param {string[]} argv
 * @param {{ dir?: string }} [opts] dir: what `{dir}` stands for (default: the corpus; a case
 *   that writes files there, such as --log-prefix, must be given a scratch directory)
 */
export function pgloadArgv (argv, { dir = CORPUS_DIR } = {}) {
  const out = []
  for (const raw of argv) {
    const a = raw.replaceAll('{dir}', dir)
    const glued = /^-([A-Za-z])(.+)$/.exec(a)
    if (glued && SHORT_WITH_VALUE.has(glued[1])) {
      out.push(glued[1] === 'D' ? '--define' : '-' + glued[1], glued[2])
      continue
    }
    const eq = a.indexOf('=')
    const name = eq > 0 ? a.slice(0, eq) : a
    if (name in LONG_RENAMES) {
      out.push(LONG_RENAMES[name] + (eq > 0 ? a.slice(eq) : ''))
      continue
    }
    out.push(a)
  }
  if (protocolOf(argv) === 'simple' && !argv.some((a) => a === '-M' || a.startsWith('--protocol') || /^-M./.test(a))) out.push('-M', 'simple')
  return out
}

/** pgload's own informational stderr lines, which pgbench does not print. */
export function withoutPgloadChatter (stderr) {
  return stderr.split('\n').filter((l) => !/^pgload: (PostgreSQL .* at |running \d+ terminals? on |results written to )/.test(l)).join('\n')
}
