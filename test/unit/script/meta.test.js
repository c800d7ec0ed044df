import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ClientAbortError } from '../../../lib/errors.js'
import { makeRun } from './fake.js'

const row = (fields, ...rows) => ({ command: 'SELECT', rowCount: rows.length, fields, rows })

async function runOnce (text, opts = {}) {
  const r = makeRun([{ text }], opts)
  await r.workload.transactions[0].run(r.ctx)
  return r
}

async function abort (text, opts = {}) {
  const r = makeRun([{ text }], opts)
  try {
    await r.workload.transactions[0].run(r.ctx)
  } catch (e) {
    assert.ok(e instanceof ClientAbortError, e.stack)
    return e.message
  }
  assert.fail('no abort')
}

test('simple protocol substitutes text verbatim, undefined variables stay as written', async () => {
  const { conn } = await runOnce("\\set a 5\n\\set d 1.5\n\\set b true\n\\set n NULL\nselect :a, ':a', :d::text, :b, :n, :nope, a::int, :a::int;\n")
  assert.deepEqual(conn.sent, ["select 5, '5', 1.5::text, true, NULL, :nope, a::int, 5::int;"])
})

test('extended and prepared bind parameters: undefined is NULL, the NULL value is the text NULL', async () => {
  for (const protocol of ['extended', 'prepared']) {
    const { conn } = await runOnce('\\set a 5\n\\set n NULL\n\\set b 5000000000\n\\set c -2147483648\nselect :a, :n, :nope, :a, :b, :c;\n', { protocol })
    // int32 values go as numbers (the connection writes their digits), wider ones as text
    assert.deepEqual(conn.sent, [{ sql: 'select $1, $2, $3, $4, $5, $6;', values: [5, 'NULL', null, 5, '5000000000', -2147483648] }])
  }
})

test('-D variables are strings, automatic variables are set unless -D defines them', async () => {
  const { conn } = await runOnce('select :client_id, :scale, :random_seed, :default_seed, :x;', { variables: { x: 'hello', scale: '7' }, terminalId: 0 })
  assert.deepEqual(conn.sent, ['select 0, 7, 5432, 7590783070443337668, hello;'])
})

test('\\gset stores the one row of the last result as strings, with a prefix; SQL NULL becomes empty', async () => {
  const { debug } = await runOnce('select 1 \\gset\nselect 2 \\gset p_\n\\set x debug(:a + :p_b)\n\\set y debug(:c)\n', {
    respond: (sql) => sql.startsWith('select 1') ? row(['a', 'c'], ['40', 'null']) : row(['b'], ['2'])
  })
  assert.deepEqual(debug.map(l => l.trim()), ['debug(script=0,command=3): int 42', 'debug(script=0,command=4): null'])
  assert.match(await abort('select 1 \\gset', { respond: () => row(['a'], ['1'], ['2']) }), /client 0 script 0 command 0 query 0: expected one row, got 2$/)
  assert.match(await abort('drop table t \\gset', { respond: () => ({ command: 'DROP', rowCount: 0, fields: [], rows: [] }) }), /expected one row, got 0$/)
  assert.match(await abort('select 1 \\gset', { respond: () => row(['?column?'], ['1']) }), /error storing into variable \?column\?$/)
})

test('\\aset stores every non-empty result of a compound query, the last row winning', async () => {
  const { debug } = await runOnce('select 6 as i6 \\; select 7 as i7 \\; select 0 where false \\aset\n\\set x debug(:i6 + :i7)\n', {
    respond: () => [row(['i6'], ['6'], ['8']), row(['i7'], ['7']), row(['i8'])]
  })
  assert.deepEqual(debug.map(l => l.trim()), ['debug(script=0,command=2): int 15'])
  assert.match(await abort('select 1 as i8 where false \\aset\n\\set x :i8\n', { respond: () => [row(['i8'])] }), /undefined variable "i8"/)
})

test('\\if, \\elif, \\else: only the chosen branch runs, skipped conditions are not evaluated', async () => {
  const text = `\\if false
select 'a';
\\if true
select 'never';
\\endif
\\elif debug(1) = 1
select 'b';
\\elif debug(2) = 2
select 'c';
\\else
select 'd';
\\endif
\\if 0
\\elif NULL
\\else
select 'e';
\\endif
\\if 1.5
select 'f';
\\elif 1/0
\\else
select 'g';
\\endif`
  const { conn, debug } = await runOnce(text)
  assert.deepEqual(conn.sent, ["select 'b';", "select 'e';", "select 'f';"])
  assert.deepEqual(debug.map(l => l.trim()), ['debug(script=0,command=6): int 1'])
})

test('\\sleep: units, variables and their errors', async () => {
  const r = makeRun([{ text: '\\set ms 3\n\\sleep :ms ms\n\\sleep 2\n\\sleep 10us\n\\sleep -5 s\n' }])
  const slept = []
  r.ctx.sleepUs = async (us) => { slept.push(us) }
  await r.workload.transactions[0].run(r.ctx)
  assert.deepEqual(slept, [3000, 2000000, 10])
  assert.equal(await abort('\\sleep :nosuch'), 'client 0 aborted in command 0 (sleep) of script 0; execution of meta-command failed: sleep: undefined variable "nosuch"')
  assert.match(await abort('\\sleep :v', { variables: { v: 'abc' } }), /sleep: invalid sleep time "abc" for variable "v"$/)
})

test('\\setshell and \\shell build the command line with variables and check the output', async () => {
  const calls = []
  const runShell = async (cmd, capture) => { calls.push([cmd, capture]); return { code: 0, stdout: cmd.startsWith('echo') ? cmd.slice(5) + '\n' : 'one' } }
  const { debug } = await runOnce('\\set one 1\n\\setshell v echo :one ::x\n\\shell touch :one\n', { runShell }).catch(e => e)
    .then(() => runOnce('\\set one 1\n\\setshell v echo 4\n\\set x debug(:v + :one)\n\\shell echo ::lit :one\n', { runShell }))
  assert.deepEqual(calls.slice(-2), [['echo 4', true], ['echo :lit 1', false]])
  assert.deepEqual(debug.map(l => l.trim()), ['debug(script=0,command=3): int 5'])
  assert.match(await abort('\\setshell v cat', { runShell }), /cat: shell command must return an integer \(not "one"\)$/)
  assert.match(await abort('\\setshell v true', { runShell: async () => ({ code: 0, stdout: '' }) }), /true: could not read result of shell command$/)
  assert.match(await abort('\\shell false', { runShell: async () => ({ code: 1, stdout: '' }) }), /\(shell\) of script 0; execution of meta-command failed: false: could not launch shell command$/)
  assert.match(await abort('\\shell echo ::foo :nosuchvariable', { runShell }), /echo: undefined variable ":nosuchvariable"$/)
  assert.match(await abort(`\\shell echo ${'x'.repeat(300)}`, { runShell }), /echo: shell command is too long$/)
})

test('pipelines batch the SQL between \\startpipeline and \\endpipeline, split at \\syncpipeline', async () => {
  const r = makeRun([{ text: '\\startpipeline\nselect 1;\n\\set a 2\nselect :a;\n\\syncpipeline\nselect 3;\n\\endpipeline\n' }], { protocol: 'extended' })
  let batches
  r.conn.runPipeline = async (b) => { batches = b; return b.map(x => x.map(() => row([]))) }
  await r.workload.transactions[0].run(r.ctx)
  assert.deepEqual(batches.map(b => b.map(x => [x.stmt.text, x.values])), [[['select 1;', []], ['select $1;', [2]]], [['select 3;', []]]])
  assert.match(await abort('\\startpipeline\n\\startpipeline\n', { protocol: 'extended' }), /already in pipeline mode$/)
  assert.match(await abort('\\endpipeline\n', { protocol: 'extended' }), /\(endpipeline\) of script 0; not in pipeline mode$/)
  assert.match(await abort('\\startpipeline\nselect 1 \\gset f\n\\endpipeline\n', { protocol: 'extended' }), /\(gset\) of script 0; \\gset is not allowed in pipeline mode$/)
  assert.equal(await abort('\\startpipeline\n', { protocol: 'extended' }), 'client 0 aborted: end of script reached with pipeline open')
  assert.match(await abort('\\startpipeline\n\\endpipeline\n'), /cannot use pipeline mode with the simple query protocol$/)
})

test('SQL errors: retryable ones go to the engine, others abort with the full server message', async () => {
  const serialization = Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001', severity: 'ERROR' })
  const r = makeRun([{ text: 'begin;\nupdate t set x = 1;\nend;\n' }], { respond: (sql) => sql.startsWith('update') ? serialization : null })
  await assert.rejects(r.workload.transactions[0].run(r.ctx), (e) => e === serialization)
  const other = Object.assign(new Error('division by zero'), { code: '22012', severity: 'ERROR', where: 'SQL function "f"' })
  const msg = await abort('select 1;\nselect 1/0;\n', { respond: (sql) => sql.includes('1/0') ? other : null })
  assert.equal(msg, 'client 0 script 0 aborted in command 1 query 0: ERROR:  division by zero\nCONTEXT:  SQL function "f"')
})

test('end of script inside a transaction block aborts; COPY is refused', async () => {
  assert.equal(await abort('BEGIN;SELECT 1;'), 'client 0 aborted: end of script reached without completing the last transaction')
  assert.equal(await abort(' COPY pgbench_accounts FROM stdin '), 'COPY is not supported in pgbench, aborting')
})

test('scripts are chosen by weight with pgbench\'s draw; one script draws nothing', async () => {
  const { workload } = makeRun([{ name: 'a.sql', text: 'select 1;', weight: 3 }, { name: 'b.sql', text: 'select 2;', weight: 1 }, { name: 'c.sql', text: 'select 3;', weight: 0 }])
  const counts = [0, 0, 0]
  for (let i = 0; i < 4000; i++) counts[workload.choose()]++
  assert.equal(counts[2], 0)
  assert.ok(Math.abs(counts[0] / 4000 - 0.75) < 0.03, String(counts))
  assert.deepEqual(workload.transactions.map(t => t.name), ['a.sql', 'b.sql', 'c.sql'])
  const one = makeRun([{ text: 'select 1;' }])
  const before = one.workload.seeds.choose.getState()
  assert.equal(one.workload.choose(), 0)
  assert.deepEqual(one.workload.seeds.choose.getState(), before)
})

test('per-command statistics: counts, latency, failures and retries on the failing command', async () => {
  const r = makeRun([{ text: '\\set a 1\n\\sleep 2 ms\nselect :a;\n' }], { reportPerCommand: true })
  for (let i = 0; i < 3; i++) await r.workload.transactions[0].run(r.ctx)
  r.ctx.state.errCmds.push(0, 2, 0, 2)
  r.workload.onTransactionEnd(r.ctx, { type: 's0.sql', status: 'failed', tries: 2 })
  const out = await r.workload.afterRun()
  const cmds = out.script['s0.sql'].commands
  assert.deepEqual(cmds.map(c => [c.line, c.text, c.count, c.failures, c.retries]),
    [[1, '\\set a 1', 3, 0, 0], [2, '\\sleep 2 ms', 3, 0, 0], [3, 'select :a;', 3, 1, 1]])
  assert.equal(cmds[1].latencyMs, 2)
})

test('workload options: undefined keeps the default, -D names are checked', async () => {
  const { conn } = await runOnce('select :scale;', { scale: undefined })
  assert.deepEqual(conn.sent, ['select 1;'])
  assert.throws(() => makeRun([{ text: 'select 1;' }], { variables: { 'bad-name': '1' } }), /^PgloadError: option: invalid variable name: "bad-name"$/)
})

test('an error inside a pipeline is reported at \\endpipeline', async () => {
  const r = makeRun([{ text: '\\startpipeline\nselect 1;\nselect 1/0;\n\\endpipeline\n' }], { protocol: 'extended' })
  r.conn.runPipeline = async (b) => [[row([]), Object.assign(new Error('division by zero'), { code: '22012' })]]
  await assert.rejects(r.workload.transactions[0].run(r.ctx), /^ClientAbortError: client 0 script 0 aborted in command 3 query 0: ERROR: {2}division by zero$/)
  const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' })
  r.conn.runPipeline = async () => [[deadlock]]
  await assert.rejects(r.workload.transactions[0].run(r.ctx), (e) => e === deadlock && e.commandIndex === 3 && e.scriptIndex === 0)
})
