// pgbench's built-in scripts (exact texts), lookup by unambiguous prefix, and `name@weight` parsing.

import { PgloadError } from '../errors.js'

const TPCB_HEAD = `\\set aid random(1, 100000 * :scale)
\\set bid random(1, 1 * :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
`

/** @type {ReadonlyArray<{ name: string, desc: string, script: string }>} */
export const BUILTIN_SCRIPTS = Object.freeze([
  {
    name: 'tpcb-like',
    desc: '<builtin: TPC-B (sort of)>',
    script: TPCB_HEAD +
      'UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n' +
      'UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n' +
      'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n' +
      'END;\n'
  },
  {
    name: 'simple-update',
    desc: '<builtin: simple update>',
    script: TPCB_HEAD +
      'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n' +
      'END;\n'
  },
  {
    name: 'select-only',
    desc: '<builtin: select only>',
    script: '\\set aid random(1, 100000 * :scale)\n' +
      'SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n'
  }
])

/** pgbench's `-b list` text: `Available builtin scripts:` then `  %13s: %s` lines and a blank line. */
export function listBuiltins () {
  return 'Available builtin scripts:\n' +
    BUILTIN_SCRIPTS.map(b => `  ${b.name.padStart(13)}: ${b.desc}\n`).join('') + '\n'
}

/**
 * A built-in script by unambiguous prefix (`t`, `si`, `se`), with pgbench's errors.
 * @param {string} name
 */
export function findBuiltin (name) {
  const found = BUILTIN_SCRIPTS.filter(b => b.name.startsWith(name))
  if (found.length === 1) return found[0]
  const hint = listBuiltins().trimEnd()
  if (found.length === 0) throw new PgloadError(`no builtin script found for name "${name}"`, { code: 'BAD_BUILTIN', hint })
  throw new PgloadError(`ambiguous builtin name: ${found.length} builtin scripts found for prefix "${name}"`, { code: 'BAD_BUILTIN', hint })
}

/**
 * Split `NAME[@WEIGHT]` at the last `@`, as pgbench's parseScriptWeight (strtol, 0..INT_MAX).
 * @param {string} spec
 * @returns {{ name: string, weight: number }}
 */
export function splitWeight (spec) {
  const at = spec.lastIndexOf('@')
  if (at < 0) return { name: spec, weight: 1 }
  const sep = spec.slice(at)
  const m = /^[ \t\n\v\f\r]*([+-]?[0-9]+)$/.exec(sep.slice(1))
  if (!m) throw new PgloadError(`invalid weight specification: ${sep}`, { code: 'BAD_WEIGHT' })
  const w = BigInt(m[1])
  if (w > 9223372036854775807n || w < -9223372036854775808n) throw new PgloadError(`invalid weight specification: ${sep}`, { code: 'BAD_WEIGHT' })
  if (w > 2147483647n || w < 0n) throw new PgloadError(`weight specification out of range (0 .. 2147483647): ${w}`, { code: 'BAD_WEIGHT' })
  return { name: spec.slice(0, at), weight: Number(w) }
}
