import { test } from 'node:test'
import assert from 'node:assert/strict'
import { recordedArgs, defaultSweepDir, parseSweepArgs } from '../../../lib/cli/sweep.js'

test('a sweep records its arguments without the server\'s address, its directory and output switches', () => {
  assert.deepEqual(recordedArgs(['tpcb', '--url', 'postgres://u:secret@db/x', '--scale', '1,2', '-c', '1,2', '--dir', 'out', '--verbose', '-T', '1s']),
    ['tpcb', '--scale', '1,2', '-c', '1,2', '-T', '1s'])
  assert.deepEqual(recordedArgs(['tpcb', '--url=postgres://u:secret@db/x', '-h', 'db', '-p5433', '-U', 'me', '-d', 'bench', '--json', '--log-file', 'l.json', '--resume=d']), ['tpcb'])
  assert.deepEqual(recordedArgs(['my.sql', '--rate', '1000,2000', '-D', 'x=1']), ['my.sql', '--rate', '1000,2000', '-D', 'x=1'])
  assert.deepEqual(recordedArgs(['tpcb', '--cold', '--restart-command', 'PGPASSWORD=x ssh db restart', '-c', '1,2']), ['tpcb', '--cold', '-c', '1,2'])
})

test('the live options are not recorded: --dashboard with or without its address, --dashboard-out, --metrics', () => {
  assert.deepEqual(recordedArgs(['tpcb', '--dashboard', '-c', '1,2', '--metrics', '127.0.0.1:9464']), ['tpcb', '-c', '1,2'])
  assert.deepEqual(recordedArgs(['--dashboard', '0.0.0.0:5665', '--dashboard-out', 'x.html', 'tpcb', '--scale', '1,2']), ['tpcb', '--scale', '1,2'])
  assert.deepEqual(recordedArgs(['tpcb', '--dashboard=127.0.0.1:0', '--metrics=127.0.0.1:0', '-T', '2']), ['tpcb', '-T', '2'])
  assert.deepEqual(recordedArgs(['tpcb', '-c', '1,2', '--dashboard']), ['tpcb', '-c', '1,2'])
})

test('--metrics-push and its headers are not recorded: they may hold a password or a token', () => {
  assert.deepEqual(recordedArgs(['tpcb', '--metrics-push', 'http://u:pw@h:9090/api/v1/write', '-c', '1,2', '--metrics-push-header', 'Authorization: Bearer t']), ['tpcb', '-c', '1,2'])
  assert.deepEqual(recordedArgs(['tpcb', '--metrics-push=http://h/api/v1/write', '--metrics-push-header=A: b', '-T', '2']), ['tpcb', '-T', '2'])
})

test('the default directory is named after the time and the workload', () => {
  assert.equal(defaultSweepDir('tpcb', new Date('2026-11-25T14:55:10.123Z')), 'pgload-sweeps/20261125T145510Z-tpcb')
  assert.equal(defaultSweepDir('dir/my.sql a.sql@2', new Date('2026-11-25T14:55:10Z')), 'pgload-sweeps/20261125T145510Z-dir_my.sql_a.sql_2')
})

test('recorded arguments parse back as the command line gave them', async () => {
  const argv = await parseSweepArgs(['tpcc', '--warehouses', '10', '--clients', '10,50', '--no-wait', '--repeat', '2'])
  assert.deepEqual(argv.workload, ['tpcc'])
  assert.equal(argv.warehouses, '10', 'a list, so a string')
  assert.equal(argv.clients, '10,50')
  assert.equal(argv.wait, false)
  assert.equal(argv.repeat, '2')
  await assert.rejects(parseSweepArgs(['tpcb', '--no-such-flag']), /Unknown argument/)
})
