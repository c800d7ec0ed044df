// What a script transaction ran, kept for its replay under EXPLAIN: the statements of the last
// execution with the values sent, and one line per statement that cannot be replayed alone.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { makeRun } from './fake.js'

const row = (fields, ...rows) => ({ command: 'SELECT', rowCount: rows.length, fields, rows })

async function ranOnce (text, opts) {
  const r = makeRun([{ text }], opts)
  await r.workload.transactions[0].run(r.ctx)
  const ran = r.workload.captureParameters(0, r.ctx.state)
  return { r, ran, replay: r.workload.replayStatements(0, ran) }
}

test('the statements of the execution that ran, with the values sent; a branch not taken is not among them', async () => {
  const script = '\\set aid 7\n\\if :aid > 100\nSELECT 1 WHERE :aid = 0;\n\\endif\nUPDATE t SET v = v + 1 WHERE id = :aid;\nSELECT :aid, :client_id;\n'
  for (const protocol of ['simple', 'extended']) {
    const { ran, replay } = await ranOnce(script, { protocol })
    assert.deepEqual(ran, [{ command: 4, values: ['7'] }, { command: 5, values: ['7', '0'] }], protocol)
    assert.deepEqual(replay.map((s) => [s.sql, s.reason]), [['UPDATE t SET v = v + 1 WHERE id = $1;', null], ['SELECT $1, $2;', null]], protocol)
  }
})

test('a second execution replaces what the first ran', async () => {
  const r = makeRun([{ text: '\\set x random(1, 1000000)\nSELECT :x;\n' }], { protocol: 'extended' })
  await r.workload.transactions[0].run(r.ctx)
  const first = r.workload.captureParameters(0, r.ctx.state)
  await r.workload.transactions[0].run(r.ctx)
  const second = r.workload.captureParameters(0, r.ctx.state)
  assert.equal(second.length, 1)
  assert.deepEqual(second[0].values, [String(r.conn.sent.at(-1).values[0])])
  assert.notDeepEqual(first, second)
})

test('statements that cannot be replayed alone say why in one line', async () => {
  const script = [
    'BEGIN;',
    'SET LOCAL work_mem = \'8MB\';',
    'SELECT nextval(\'s\');',
    '\\set aid 3',
    'SELECT bid AS b FROM a WHERE aid = :aid \\gset',
    'SELECT * FROM b WHERE bid = :b AND aid = :aid;',
    'SELECT * FROM b WHERE aid = :aid;',
    'END;'
  ].join('\n') + '\n'
  const { replay } = await ranOnce(script, { protocol: 'extended', respond: (sql) => sql.startsWith('SELECT bid') ? row(['b'], ['1']) : null })
  assert.deepEqual(replay.map((s) => s.reason), [
    'BEGIN is not a statement EXPLAIN takes',
    'SET is not a statement EXPLAIN takes',
    'it uses a sequence, which a rollback does not undo',
    null,
    'it depends on an earlier statement\'s result (\\gset or \\aset), which its replay under EXPLAIN does not give',
    null,
    'END is not a statement EXPLAIN takes'
  ])
})
