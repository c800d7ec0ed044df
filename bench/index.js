#!/usr/bin/env node
// pgload's benchmark scripts (not tests): `npm run bench -- <name> [options]`.
//   driver      lean connection vs node-postgres on select-only, in-process CPU per query
//   vs-pgbench  pgbench and `pgload run` side by side: tps and client CPU per transaction
//   vs-peers    pgload -j 1 and -j 2, pgbench -j 1 and -j 2, sysbench: point select and tpcb-like
//   terminals   100,000 think-time terminals: schedule lag, heap per terminal, RSS slope
//   engine      pgload on in-memory connections: the engine's own CPU per transaction
//   warmup      the first seconds of pgbench and pgload runs: throughput and p99 per quarter second
//   shards      4 local shards of one tpcb run, merged: totals, percentiles and start skew
//   live        select-only -c 8 plain and with --dashboard (a page subscribed) and --metrics (scraped): the tps ratio
//   waits       select-only and tpcb-like -c 8 with --wait-sampling at its default rate and off: tps and CPU ratios
// Each takes --url (default: the embedded server) and --smoke (a few seconds, tiny settings).

import { PgloadError } from '../lib/errors.js'

const benches = {
  driver: () => import('./driver.js'),
  'vs-pgbench': () => import('./vs-pgbench.js'),
  'vs-peers': () => import('./vs-peers.js'),
  terminals: () => import('./terminals.js'),
  engine: () => import('./engine.js'),
  warmup: () => import('./warmup.js'),
  shards: () => import('./shards.js'),
  live: () => import('./live.js'),
  waits: () => import('./waits.js')
}

const [name, ...rest] = process.argv.slice(2)
try {
  if (!name || name === '--help' || !Object.hasOwn(benches, name)) {
    process.stderr.write(`usage: npm run bench -- <${Object.keys(benches).join('|')}> [--url URL] [--duration 10s] [--smoke]\n`)
    process.exitCode = name && name !== '--help' ? 1 : 0
  } else {
    const mod = await benches[name]()
    await mod.main(rest, { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) })
  }
} catch (err) {
  process.stderr.write(`bench: ${err.message}\n`)
  if (err.hint) process.stderr.write(`hint: ${err.hint}\n`)
  if (!(err instanceof PgloadError)) process.stderr.write(`${err.stack}\n`)
  process.exitCode = 1
}
