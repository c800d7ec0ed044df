import { test } from 'node:test'
import assert from 'node:assert/strict'
import { formatServerStatsSummary, checkpointSpans } from '../../../lib/output/server-summary.js'

const stats = {
  deltas: {
    xactCommit: 1000,
    blksRead: 1234,
    blksHit: 98766,
    walBytes: 52428800,
    cacheHitRatio: 0.98766,
    checkpointsTimed: 0,
    checkpointsRequested: 1,
    tempBytes: 0,
    tempFiles: 0,
    deadlocks: 2
  },
  perTransaction: { walBytes: 52428.8, blocksRead: 1.234, blocks: 100, tuples: 12 },
  events: [{ t: 12.4, kind: 'checkpoint-start', cause: 'requested' }, { t: 13, kind: 'checkpoint-end' }, { t: 20, kind: 'autovacuum', table: 'pgbench_accounts' }],
  checkpointSource: 'samples',
  missing: []
}

test('each bracket says what it divides by what: WAL and blocks per transaction, hits of block requests', () => {
  const lines = formatServerStatsSummary(stats).split('\n')
  assert.deepEqual(lines, [
    'server: WAL 50 MB server-wide (51.2 kB per transaction), cache hit 98.77% of block requests',
    '        blocks read 1,234 (1.2 per transaction; 100.0 read+hit per transaction)',
    '        checkpoints: 1 in the run (requested, 12.4 s to 13.0 s; times to the sample); server counters in the window: 0 timed, 1 requested',
    '        temp files 0 (0 bytes), deadlocks 2',
    '        autovacuum pgbench_accounts at 20s'
  ])
})

test('a run reading many blocks: blocks read alone per transaction next to read+hit', () => {
  // 15,639 blocks read and 123,000 hit over 786 transactions: 19.9 read, 176.4 read+hit each
  const s = formatServerStatsSummary({
    deltas: { blksRead: 15639, blksHit: 123000, walBytes: 786 * 49152, cacheHitRatio: 0.8872, tempBytes: 0, tempFiles: 0, deadlocks: 0, checkpointsTimed: 0, checkpointsRequested: 0 },
    perTransaction: { walBytes: 49152, blocksRead: 19.897, blocks: 176.385 },
    events: []
  })
  assert.match(s, /^server: WAL 36\.8 MB server-wide \(48\.0 kB per transaction\), cache hit 88\.72% of block requests$/m)
  assert.match(s, /^ {8}blocks read 15,639 \(19\.9 per transaction; 176\.4 read\+hit per transaction\)$/m)
  assert.match(s, /^ {8}checkpoints: none in the run; server counters in the window: 0 timed, 0 requested$/m)
})

test('a checkpoint already running when the window opened is said so, and never as "0 ... started at"', () => {
  const s = formatServerStatsSummary({
    deltas: { checkpointsTimed: 0, checkpointsRequested: 0 },
    perTransaction: {},
    events: [{ t: 0, kind: 'checkpoint-start', cause: 'timed', inProgressAtStart: true, beganS: -31.25 }],
    checkpointSource: 'log'
  })
  assert.match(s, /checkpoints: 1 in the run \(timed, in progress when the run started \(began 31\.25 s before\), still running at the end; times from the server log\); server counters in the window: 0 timed, 0 requested/)
  assert.doesNotMatch(s, /started at/)
  // from samples, with no start seen: an end alone
  const ended = formatServerStatsSummary({ deltas: { checkpointsTimed: 0, checkpointsRequested: 0 }, perTransaction: {}, events: [{ t: 7, kind: 'checkpoint-end' }], checkpointSource: 'samples' })
  assert.match(ended, /checkpoints: 1 in the run \(in progress when the run started, ended at 7\.0 s; times to the sample\)/)
})

test('a timed count without a checkpoint in the run is explained (skipped ones count too before PostgreSQL 18)', () => {
  const s = formatServerStatsSummary({ deltas: { checkpointsTimed: 1, checkpointsRequested: 0 }, perTransaction: {}, events: [] })
  assert.match(s, /checkpoints: none in the run; server counters in the window: 1 timed, 0 requested \(timed ones with nothing to write count too\)/)
  const pg18 = formatServerStatsSummary({ deltas: { checkpointsTimed: 1, checkpointsRequested: 0, checkpointsDone: 0 }, perTransaction: {}, events: [] })
  assert.match(pg18, /none in the run; server counters in the window: 1 timed, 0 requested, 0 done$/m)
})

test('a run that followed a load says so first, with what was done', () => {
  const s = formatServerStatsSummary(stats, { afterLoad: { loadS: 4.2, vacuumed: true, checkpointed: true } })
  assert.equal(s.split('\n')[0], 'note: this run followed a load of its tables (vacuumed and checkpointed before the clock started): its cache and WAL figures are not those of a steady state')
  const refused = formatServerStatsSummary(undefined, { afterLoad: { vacuumed: true, checkpointed: false, checkpointRefused: 'permission denied to execute CHECKPOINT' } })
  assert.equal(refused, 'note: this run followed a load of its tables (vacuumed before the clock started; no CHECKPOINT: permission denied to execute CHECKPOINT): its cache and WAL figures are not those of a steady state')
})

test('checkpointSpans pairs starts and ends; an end alone was running at the start', () => {
  assert.deepEqual(checkpointSpans([{ t: 3, kind: 'checkpoint-end', cause: 'timed' }, { t: 5, kind: 'checkpoint-start', cause: 'requested' }, { t: 6, kind: 'checkpoint-end' }, { t: 9, kind: 'checkpoint-start' }]), [
    { start: 0, end: 3, cause: 'timed', inProgressAtStart: true },
    { start: 5, end: 6, cause: 'requested', inProgressAtStart: false, beganS: undefined },
    { start: 9, end: null, cause: undefined, inProgressAtStart: false, beganS: undefined }
  ])
})

test('summary says n/a for what could not be read, and points at missing', () => {
  const s = formatServerStatsSummary({
    deltas: { walBytes: null, cacheHitRatio: null, blksRead: null, checkpointsTimed: null, checkpointsRequested: null, tempBytes: null, deadlocks: null },
    perTransaction: { walBytes: null, blocks: null },
    events: [],
    missing: ['a', 'b']
  })
  assert.match(s, /^server: WAL n\/a, cache hit n\/a$/m)
  assert.match(s, /^ {8}blocks read n\/a$/m)
  assert.match(s, /checkpoints: n\/a$/m)
  assert.match(s, /temp files n\/a, deadlocks n\/a/)
  assert.match(s, /\(2 statistics not available: see serverStats.missing\)/)
})

test('no deltas, no summary', () => {
  assert.equal(formatServerStatsSummary(undefined), '')
  assert.equal(formatServerStatsSummary({}), '')
})

test('small per-transaction figures keep two significant digits instead of rounding to 0.0', () => {
  // 553 blocks read and 307,000 requested over 13,400 transactions, 4 bytes of WAL in all
  const s = formatServerStatsSummary({
    deltas: { blksRead: 553, blksHit: 306447, walBytes: 4, cacheHitRatio: 0.9982, tempBytes: 0, tempFiles: 0, deadlocks: 0, checkpointsTimed: 0, checkpointsRequested: 0 },
    perTransaction: { walBytes: 4 / 13400, blocksRead: 553 / 13400, blocks: 307000 / 13400 },
    events: []
  })
  assert.match(s, /^ {8}blocks read 553 \(0\.041 per transaction; 22\.9 read\+hit per transaction\)$/m)
  assert.match(s, /\(0\.0003 bytes per transaction\)/)
})

// sizes in the one spelling of lib/format/bytes.js, as the report's: "WAL 0.0 MB" and "temp files 0 (0.0 MB)" were not
test('sizes: bytes, kB and MB as the report spells them, never 0.0 MB', () => {
  const s = formatServerStatsSummary({
    deltas: { walBytes: 812 * 1024, tempBytes: 0, tempFiles: 0, deadlocks: 0 },
    perTransaction: { walBytes: 8499 },
    events: []
  })
  assert.match(s, /^server: WAL 812 kB server-wide \(8\.3 kB per transaction\), /m)
  assert.match(s, /^ {8}temp files 0 \(0 bytes\), deadlocks 0$/m)
  const t = formatServerStatsSummary({ deltas: { walBytes: 300, tempBytes: 1.2 * 1024 * 1024, tempFiles: 3 }, events: [] })
  assert.match(t, /^server: WAL 300 bytes server-wide, /m)
  assert.match(t, /^ {8}temp files 3 \(1\.2 MB\), /m)
})
