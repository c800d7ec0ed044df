// `pgload sweep` refuses bad lists and options (and a live address it cannot bind) with one line and exit 1 before anything runs:
// no server is reached (none is given or started here) and no directory is made.

import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import net from 'node:net'
import { runCli } from '../helpers/cli.js'

const tmp = mkdtempSync(join(tmpdir(), 'pgload-sweep-cli-'))
after(() => rmSync(tmp, { recursive: true, force: true }))
// an embedded server home that stays empty: nothing may start one
const env = { PGLOAD_HOME: join(tmp, 'home') }

const CASES = [
  [['tpcb', '--clients', '1,,4'], 'pgload: --clients must be a comma-separated list of integers >= 1, got "1,,4"'],
  [['tpcb', '--scale', '0,1'], 'pgload: --scale must be a comma-separated list of integers >= 1, got "0,1"'],
  [['tpcb', '-c', '2,2'], 'pgload: --clients lists 2 twice, got "2,2"'],
  [['my.sql', '--rate', '1000,x'], 'pgload: --rate must be a comma-separated list of numbers > 0, got "1000,x"'],
  [['tpcc', '--warehouses', '1,2.5'], 'pgload: --warehouses must be a comma-separated list of integers >= 1, got "1,2.5"'],
  [['tpcc', '--warehouses', '1', '--clients', '10,20'], 'pgload: tpcc: --clients 20 is more than the 10 terminals of 1 warehouse'],
  [['tpcb', '--clients', '1,2', '--repeat', '0'], 'pgload: --repeat must be an integer in 1..1000, got "0"'],
  [['tpcb', '--clients', '1,2', '--out', 'x.json'], 'pgload: --out does not go with sweep: each run\'s results go to DIR/runs/ (--dir DIR)'],
  [['tpcb', '--clients', '1,2', '--shard-timeout', '5s'], 'pgload: --shard-timeout does not go with sweep: a sweep runs its cells one after the other on one machine'],
  [['tpcb', '--clients', '1,2', '--dashboard-out', 'x.html'], 'pgload: --dashboard-out goes with --dashboard: it saves the page the dashboard shows at the end'],
  [['tpcb', '--clients', '1,2', '--metrics', 'nonsense'], 'pgload: --metrics needs HOST:PORT (e.g. 127.0.0.1:5665, 0.0.0.0:9464, [::1]:5665), got "nonsense"'],
  [['tpcb', '--clients', '1,2', '-L', '5'], 'pgload: --latency-limit needs --rate: the limit is measured against the schedule that --rate sets'],
  [['tpcb', '-i'], 'pgload: -i/--initialize is an initialization option: it cannot be used in benchmarking mode'],
  [['tpcb', '--clients', '1,2', '--streams', '0,1'], 'pgload: --streams goes with chbench only, not with tpcb'],
  [['tpcc', '--warehouses', '1', '--streams', '1'], 'pgload: --streams goes with chbench only, not with tpcc'],
  [['chbench', '--warehouses', '1', '--streams', '0,-1'], 'pgload: --streams must be a comma-separated list of integers >= 0, got "0,-1"'],
  [['chbench', '--warehouses', '1', '--streams', '0,2000'], 'pgload: --streams must be an integer in 0..1000, got 2000'],
  [['chbench', '--scale', '1'], 'pgload: chbench is sized by --warehouses, not --scale']
]

for (const [args, line] of CASES) {
  test(`sweep ${args.join(' ')}: one line, exit 1, nothing made`, async () => {
    const dir = join(tmp, `d-${CASES.findIndex((c) => c[0] === args)}`)
    const r = await runCli(['sweep', ...args, '--dir', dir], { env })
    assert.equal(r.code, 1, r.stderr)
    assert.equal(r.stderr.split('\n')[0], line)
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace')
    assert.equal(r.stdout, '')
    assert.equal(existsSync(dir), false, 'no directory made')
    assert.equal(existsSync(env.PGLOAD_HOME), false, 'no server started')
  })
}

test('sweep --dashboard on a port in use: one line, exit 1, before the directory is made or a server started', async () => {
  const busy = net.createServer()
  await new Promise((resolve) => busy.listen(0, '127.0.0.1', resolve))
  try {
    const port = busy.address().port
    const dir = join(tmp, 'busy')
    for (const flag of ['--dashboard', '--metrics']) {
      const r = await runCli(['sweep', 'tpcb', '--clients', '1,2', '--dir', dir, flag, `127.0.0.1:${port}`], { env })
      assert.equal(r.code, 1, r.stderr)
      assert.equal(r.stderr, `pgload: ${flag} 127.0.0.1:${port}: cannot listen: the port is in use\n`)
      assert.equal(existsSync(dir), false, 'no directory made')
      assert.equal(existsSync(env.PGLOAD_HOME), false, 'no server started')
    }
  } finally {
    await new Promise((resolve) => busy.close(resolve))
  }
})

test('--resume of a directory without a sweep, and a new sweep into one that holds a sweep', async () => {
  let r = await runCli(['sweep', '--resume', join(tmp, 'nothing')], { env })
  assert.equal(r.code, 1)
  assert.equal(r.stderr.split('\n')[0], `pgload: ${join(tmp, 'nothing', 'sweep.json')}: cannot read: no sweep document there`)
  const dir = join(tmp, 'taken')
  mkdirSync(dir)
  writeFileSync(join(dir, 'sweep.json'), '{}')
  r = await runCli(['sweep', 'tpcb', '--clients', '1,2', '--dir', dir], { env })
  assert.equal(r.code, 1)
  assert.deepEqual(r.stderr.split('\n').slice(0, 2), [`pgload: --dir ${dir} already holds a sweep`, `hint: continue it with pgload sweep --resume ${dir}, or give another --dir`])
  r = await runCli(['sweep', '--resume', dir], { env })
  assert.equal(r.stderr.split('\n')[0], `pgload: ${join(dir, 'sweep.json')}: format: expected "pgload-sweep", got undefined`)
})

test('sweep --help: --store stores the sweep, and no option of shards is listed', async () => {
  const r = await runCli(['sweep', '--help'], { env })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout.replace(/\s+/g, ' '), /--store store the sweep, its runs and its cells in the results database at the end/)
  assert.doesNotMatch(r.stdout, /--shard/)
})
