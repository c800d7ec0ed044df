import { test } from 'node:test'
import assert from 'node:assert/strict'
import { formatPoolerSummary } from '../../../lib/output/pooler-summary.js'

const section = (over = {}) => ({
  kind: 'pgbouncer',
  version: '1.18.0',
  found: 'detected',
  database: 'postgres',
  user: 'postgres',
  poolMode: 'transaction',
  poolSize: 2,
  maxClientsWaiting: 7,
  waitingIntervals: 3,
  waitingS: 3.013,
  longestWaitMs: 17.579,
  maxServersActive: 2,
  transactions: 4500,
  waitS: 17.6,
  waitMs: 3.911,
  series: [{ t: 1 }, { t: 2 }, { t: 3 }, { t: 3.013 }],
  ...over
})

test('clients queued: in how many intervals, how long, how many at most and the longest wait', () => {
  assert.equal(formatPoolerSummary(section()), [
    'pooler: PgBouncer 1.18.0, transaction pooling, pool of 2 server connections (at most 2 in use)',
    '        clients queued for a server connection in 3 of 4 intervals (3.013 s), at most 7 waiting, longest wait seen 17.6 ms; 3.91 ms of waiting per transaction on average'
  ].join('\n'))
})

test('no queue, no readings, no pooler', () => {
  assert.equal(formatPoolerSummary(section({ waitingIntervals: 0, waitingS: 0, poolSize: null, maxServersActive: null, poolMode: 'session' })),
    'pooler: PgBouncer 1.18.0, session pooling\n        no client queued for a server connection (4 intervals read)')
  assert.match(formatPoolerSummary(section({ series: [] })), /no reading of the pooler during the run/)
  assert.equal(formatPoolerSummary(undefined), '')
})
