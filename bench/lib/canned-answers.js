// What the in-memory connections of the engine bench answer (fake-shim.js, wire-shim.js): the few
// set-up queries whose replies pgload reads, and one row or none for everything else.

// [text contains, rows]: set-up queries whose answers are read; everything else gets one row.
const ANSWERS = [
  ["current_setting('server_version'), current_setting('server_version_num')", [['18.4', '180004']]],
  ["current_setting('server_version_num')", [['180004']]],
  [':incomplete', []], // no table left incomplete by an interrupted init (workloads/own-tables.js)
  ['to_regclass', [['t']]],
  ['count(*) from pgbench_branches', [['10']]]
]
const FIELDS = ['x']
const ONE_ROW = [['0']]

/**
 * The result a statement gets: its command word, one row for a SELECT, none otherwise.
 * @param {string} text
 * @returns {{ command: string, rowCount: number, fields: string[], rows: string[][] }}
 */
export function resultFor (text) {
  for (const [needle, rows] of ANSWERS) if (text.includes(needle)) return { command: 'SELECT', rowCount: rows.length, fields: FIELDS, rows }
  const command = (/^\s*([A-Za-z]+)/.exec(text)?.[1] ?? '').toUpperCase() // the word a server's tag would start with
  return { command, rowCount: 1, fields: FIELDS, rows: command === 'SELECT' ? ONE_ROW : [] }
}
