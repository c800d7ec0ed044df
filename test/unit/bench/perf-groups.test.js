// The function groups of bench/perf-groups.js: which group a sampled symbol falls in, and the sums
// of a perf report by group and by thread.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { groupOf, groupReport } from '../../../bench/lib/perf-groups.js'

test('a sampled symbol falls in its group: kernel, pgload by room, Node.js and V8, libuv, libc', () => {
  assert.equal(groupOf('[kernel.kallsyms]', '[k] tcp_sendmsg_locked'), 'kernel')
  assert.equal(groupOf('jitted-1-2.so', '[.] JS:*parse file:///x/lib/db/response-parser.js:162:9'), 'driver (lib/db)')
  assert.equal(groupOf('jitted-1-2.so', '[.] JS:*_done file:///x/lib/engine/terminal.js:365:9'), 'engine (lib/engine)')
  assert.equal(groupOf('jitted-1-2.so', '[.] JS:*advance file:///x/lib/script/interpreter.js:113:18'), 'script interpreter (lib/script)')
  assert.equal(groupOf('jitted-1-2.so', '[.] JS:*recordValue file:///x/node_modules/hdr-histogram-js/dist/JsHistogram.js:1:1'), 'recorder (lib/metrics, histograms)')
  assert.equal(groupOf('jitted-1-2.so', '[.] JS:*newOrder file:///x/workloads/tpcc/transactions/new-order.js:1:1'), 'workload (workloads/)')
  assert.equal(groupOf('jitted-1-2.so', '[.] JS:*processTimers node:internal/timers:512:25'), 'timers (Node.js JS)')
  assert.equal(groupOf('jitted-1-2.so', '[.] JS:*onStreamRead node:internal/stream_base_commons:168:22'), 'net, streams, worker messages (Node.js JS)')
  assert.equal(groupOf('node', '[.] v8::internal::Scavenger::ScavengeObject<v8::internal::FullHeapObjectSlot>'), 'GC')
  assert.equal(groupOf('node', '[.] v8::internal::compiler::GraphReducer::ReduceTop'), 'V8 compiler and parser')
  assert.equal(groupOf('node', '[.] Builtins_LoadIC'), 'V8 builtins (ICs, calls)')
  assert.equal(groupOf('node', '[.] uv__io_poll'), 'libuv (event loop)')
  assert.equal(groupOf('node', '[.] node::StreamBase::CallJSOnreadMethod'), 'Node.js and V8 C++ (callbacks into JS)')
  assert.equal(groupOf('libc.so.6', '[.] __GI___libc_write'), 'libc (syscall stubs, malloc)')
  assert.equal(groupOf('node', '[.] 0x0000000001234'), 'other native')
})

test('a report sums by group, and by thread when asked; headers and blank lines are skipped', () => {
  const report = [
    '# Samples: 10',
    '',
    ' 50.00% | 5 |  11:node |[kernel.kallsyms] |[k] finish_task_switch.isra.0',
    ' 20.00% | 2 |  12:node |[kernel.kallsyms] |[k] tcp_poll',
    ' 20.00% | 2 |  11:node |jitted-11-3.so |[.] JS:*parse file:///x/lib/db/response-parser.js:1:1',
    ' 10.00% | 1 |  12:node |node |[.] uv__io_poll'
  ].join('\n')
  const all = groupReport(report)
  assert.equal(all.total, 10)
  assert.deepEqual(all.rows, [
    { thread: null, group: 'kernel', samples: 7 },
    { thread: null, group: 'driver (lib/db)', samples: 2 },
    { thread: null, group: 'libuv (event loop)', samples: 1 }
  ])
  const threads = groupReport(report, { byThread: true })
  assert.deepEqual(threads.rows.map((r) => [r.thread, r.group, r.samples]), [
    ['11:node', 'kernel', 5], ['12:node', 'kernel', 2], ['11:node', 'driver (lib/db)', 2], ['12:node', 'libuv (event loop)', 1]
  ])
})
