// No module reads or writes a connection's private members (`conn._socket`, `lean._out`...) but
// the connection's own file: the lean connection is one object in one file, and what its parts
// (transport, reader, parser, COPY stream) and the benches need goes through their interfaces.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, sourceFiles } from '../../helpers/import-graph.js'

// The objects whose `_` members belong to one file, by the names code gives them.
const OWNERS = [
  { file: 'lib/db/lean-connection.js', names: ['conn', 'connection', 'lean', 'leanConn', 'leanConnection'] }
]

/**
 * `name._member` (or `name?._member`, `this.name._member`, `name[i]._member`) in `text`, outside
 * line comments, for one of `names`: each as `line: code`.
 * @param {string} text @param {string[]} names
 * @returns {string[]}
 */
export function privateAccesses (text, names) {
  const access = new RegExp(`(?<![\\w$])(?:${names.join('|')})(?:\\[[^\\]]*\\])?\\??\\._[A-Za-z$]`)
  const out = []
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '')
    if (/^\s*\*/.test(code)) return // inside a block comment
    if (access.test(code)) out.push(`${i + 1}: ${line.trim()}`)
  })
  return out
}

const SELF = 'test/unit/architecture/private-members.test.js' // its examples below
const FILES = ['lib', 'bench', 'test', 'bin', 'workloads'].flatMap(sourceFiles).filter((f) => f !== SELF)

for (const { file: owner, names } of OWNERS) {
  test(`no ${names[0]}._member outside ${owner}`, () => {
    const found = []
    for (const file of FILES) {
      if (file === owner) continue
      for (const hit of privateAccesses(readFileSync(join(ROOT, file), 'utf8'), names)) found.push(`${file}:${hit}`)
    }
    assert.deepEqual(found, [])
  })
}

test('the check sees the ways code reaches a private member, and not public ones or comments', () => {
  const names = OWNERS[0].names
  for (const code of ['conn._pid = 1', 'this.conn._socket.write(b)', 'lean._out.queued', 'conns[0]._reader', 'x = conn?._transport', 'f(connection._writer)']) {
    const hits = privateAccesses(code, names.concat('conns'))
    assert.equal(hits.length, 1, code)
  }
  for (const code of ['conn.backendPid', 'this._reader.idle()', 'reconn._x', 'connector._x', '// conn._pid in a comment', ' * conn._out in a JSDoc']) {
    assert.deepEqual(privateAccesses(code, names), [], code)
  }
})
