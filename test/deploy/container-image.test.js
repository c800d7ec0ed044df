// The container image as a user runs it: built from the Dockerfile (by .ci/image, on a base made
// locally), then inside it `pgload --version`, a tpcb run against the host's test server, one
// on the embedded server inside it, and two shards of one run in two containers merged by a third.

import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, readFileSync, chmodSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'
import { podmanUnavailable, buildImage, runContainer, imageConfig } from '../helpers/podman.js'
import { readRecipe, podContainer } from '../helpers/k8s-recipe.js'
import { scratchDatabase } from '../helpers/scratch-database.js'

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
const TAG = 'localhost/pgload:test'
const unavailable = await podmanUnavailable()
const dir = mkdtempSync(join(tmpdir(), 'pgload-image-'))
// the image runs as the non-root user node: it writes its results in the mounted directory
chmodSync(dir, 0o777)
let image
let server

before(async () => {
  if (unavailable) return
  image = await buildImage(TAG)
  server = await getTestServer()
  const init = await runCli(['init', 'tpcb', '--scale', '1', '--force', '--url', server.url])
  assert.equal(init.code, 0, init.stderr)
}, { timeout: 600_000 })

after(() => rmSync(dir, { recursive: true, force: true }))

describe('the container image', { skip: unavailable ?? false }, () => {
  test('the image\'s entrypoint is pgload, run as a non-root user', { timeout: 180_000 }, async () => {
    const r = await runContainer(image, ['--version'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout.trim(), `pgload ${version}`)
    const config = await imageConfig(image)
    assert.equal(config.User, 'node')
    assert.deepEqual(config.Entrypoint, ['pgload'])
    assert.equal(config.WorkingDir, '/results')
    // the program, its data and its production dependencies; no tests, benches or dev tools
    const ls = await runContainer(image, ['-p', "JSON.stringify([require('fs').readdirSync('/app'), require('fs').existsSync('/app/node_modules/eslint')])"], { entrypoint: 'node' })
    assert.equal(ls.code, 0, ls.stderr)
    assert.deepEqual(JSON.parse(ls.stdout), [['README.md', 'bin', 'lib', 'node_modules', 'package.json', 'reports', 'workloads'], false])
  })

  test('a tpcb run inside the image against the host\'s server writes its results to the mounted /results', { timeout: 180_000 }, async () => {
    const r = await runContainer(image, ['run', 'tpcb', '-T', '5s', '-c', '2', '--url', server.url, '-o', 'run.json'], { results: dir })
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'))
    assert.ok(doc.summary.transactions > 0)
    assert.ok(Math.abs(doc.run.durationS - 5) < 1, `${doc.run.durationS} s`)
    assert.equal(doc.tool.version, version)
  })

  test('without --url, the embedded PostgreSQL runs inside the image as its non-root user', { timeout: 180_000 }, async () => {
    const r = await runContainer(image, ['run', 'tpcb', '-T', '2s', '-o', 'embedded.json'], { results: dir })
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(readFileSync(join(dir, 'embedded.json'), 'utf8'))
    assert.ok(doc.summary.transactions > 0)
    assert.equal(doc.server.embedded, true)
    assert.match(doc.server.version, /^18\./)
  })

  test('two shards in two containers meet, and a third container merges them to their sums', { timeout: 180_000 }, async () => {
    const runId = `image-${process.pid}`
    const shards = await Promise.all([0, 1].map((k) => runContainer(image,
      ['run', 'tpcb', '--url', server.url, '-c', '4', '-T', '3s', '-n', '--shards', '2', '--run-id', runId, '-o', `shard-${k}.json`],
      { results: dir, env: { JOB_COMPLETION_INDEX: String(k) } })))
    for (const r of shards) {
      assert.equal(r.code, 0, r.stderr)
      assert.match(r.stderr, /all 2 shards arrived after [\d.]+ s; started at \S+ server time, [\d.]+ ms late/)
    }
    const merge = await runContainer(image, ['merge', 'shard-0.json', 'shard-1.json', '-o', 'merged.json'], { results: dir })
    assert.equal(merge.code, 0, merge.stderr)
    const docs = [0, 1].map((k) => JSON.parse(readFileSync(join(dir, `shard-${k}.json`), 'utf8')))
    const merged = JSON.parse(readFileSync(join(dir, 'merged.json'), 'utf8'))
    const sum = (f) => docs.reduce((a, d) => a + f(d), 0)
    assert.equal(merged.summary.transactions, sum((d) => d.summary.transactions))
    assert.equal(merged.summary.failed, sum((d) => d.summary.failed))
    assert.equal(merged.transactions['tpcb-like'].count, sum((d) => d.transactions['tpcb-like'].count))
    assert.equal(merged.run.terminals, 4)
    assert.equal(merged.run.shards.count, 2)
    const skew = /start skew ([\d.]+) ms/.exec(merge.stdout)
    assert.ok(skew, merge.stdout)
    assert.equal(merged.run.shards.startSkewMs, Number(skew[1]))
  })

  test('the load Job, the Indexed Job and the merge Job of docs/shards.md run as written (shorter, and on the test server)', { timeout: 240_000 }, async (t) => {
    const recipe = readRecipe(new URL('../../docs/shards.md', import.meta.url))
    // a database of its own: the load Job loads into an empty one, as on a new cluster
    const db = scratchDatabase(`pgload_k8s_${process.pid}`)
    await db.create()
    t.after(() => db.drop())
    const u = new URL(server.url)
    // the Secret's server is the test's; the run is shorter and smaller, all else as printed
    const secret = structuredClone(recipe.secret)
    Object.assign(secret.stringData, { PGHOST: u.hostname, PGPORT: u.port, PGDATABASE: db.name, PGUSER: 'postgres', PGPASSWORD: decodeURIComponent(u.password) })
    // the test server has no SSL: prefer falls back to plain, as the recipe's comment says
    secret.stringData.PGSSLMODE = 'prefer'
    // the load Job first, at scale 1 instead of the recipe's scale
    const init = podContainer(recipe.init, { secret })
    const scaled = init.args.map((a, i) => (init.args[i - 1] === '--scale' ? '1' : a))
    const loaded = await runContainer(image, scaled, { results: dir, env: init.env })
    assert.equal(loaded.code, 0, loaded.stderr)
    const shorter = (args) => args.map((a, i) => (args[i - 1] === '-T' ? '3s' : args[i - 1] === '-c' ? '8' : a))
    const completions = recipe.shards.spec.completions
    const pods = Array.from({ length: completions }, (_, k) => podContainer(recipe.shards, { secret, index: k }))
    for (const pod of pods) assert.match(pod.image, /\/pgload:/)
    const runs = await Promise.all(pods.map((pod) => runContainer(image, shorter(pod.args), { results: dir, env: pod.env })))
    runs.forEach((r) => assert.equal(r.code, 0, r.stderr))
    const jobDir = join(dir, recipe.shards.metadata.name)
    const docs = pods.map((_, k) => JSON.parse(readFileSync(join(jobDir, `shard-${k}.json`), 'utf8')))
    assert.deepEqual(docs.map((d) => d.run.shard.runId), pods.map(() => recipe.shards.metadata.name))

    const merge = podContainer(recipe.merge)
    const r = await runContainer(image, merge.args, { results: dir, entrypoint: JSON.stringify(merge.command), workdir: merge.workingDir })
    // 99: the recipe's threshold failed on this busy machine, after merging: the recipe worked
    assert.ok(r.code === 0 || r.code === 99, `exit ${r.code}: ${r.stderr}`)
    const merged = JSON.parse(readFileSync(join(jobDir, 'merged.json'), 'utf8'))
    assert.equal(merged.summary.transactions, docs.reduce((a, d) => a + d.summary.transactions, 0))
    assert.equal(merged.run.shards.count, completions)
    assert.match(r.stdout, /p\(99\) < 50ms/)
  })
})
