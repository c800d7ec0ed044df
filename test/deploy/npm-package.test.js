// The npm package as a user gets it: `npm pack`, installed with `npm install -g` into an empty
// prefix (its dependencies from the registry), then run from there. It holds what it needs
// (workloads, reports, schema files) and no tests or benches.

import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { getTestServer } from '../helpers/server.js'
import { runNode } from '../helpers/cli.js'

const execFileAsync = promisify(execFile)
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
const dir = mkdtempSync(join(tmpdir(), 'pgload-npm-package-'))

/** Why npm cannot install here (no npm, no registry), or null. */
async function npmUnavailable () {
  try {
    await execFileAsync('npm', ['ping', '--silent'], { timeout: 20_000 })
    return null
  } catch (err) {
    return err.code === 'ENOENT' ? 'npm is not installed' : 'the npm registry is not reachable (npm ping failed)'
  }
}

const unavailable = await npmUnavailable()
let tarball
let pgload

before(async () => {
  if (unavailable) return
  const packed = await execFileAsync('npm', ['pack', '--json', '--pack-destination', dir, ROOT], { timeout: 60_000 })
  const [info] = JSON.parse(packed.stdout)
  tarball = { file: join(dir, info.filename), files: info.files.map((f) => f.path) }
  const prefix = join(dir, 'prefix')
  await execFileAsync('npm', ['install', '-g', '--no-audit', '--no-fund', '--prefix', prefix, tarball.file], { timeout: 240_000 })
  pgload = join(prefix, 'bin', 'pgload')
})

after(() => rmSync(dir, { recursive: true, force: true }))

describe('the npm package', { skip: unavailable ?? false }, () => {
  test('the packed package holds the program and its data files, and no tests, benches or results', () => {
    assert.match(tarball.file, new RegExp(`pgload-${version.replaceAll('.', '\\.')}\\.tgz$`))
    for (const need of ['package.json', 'README.md', 'bin/pgload.js', 'lib/index.js', 'workloads/tpcb/schema.sql', 'workloads/tpcc/schema.sql', 'reports/report.html']) {
      assert.ok(tarball.files.includes(need), `${need} is in the package`)
    }
    const stray = tarball.files.filter((f) => /^(test|bench|pgload-results|node_modules)\//.test(f) || /^\.|\/\./.test(f))
    assert.deepEqual(stray, [])
  })

  test('installed into an empty prefix, pgload prints its version and runs tpcb', { timeout: 180_000 }, async () => {
    const server = await getTestServer()
    // the installed pgload from outside the checkout: no module of the checkout can be found
    const opts = { cwd: dir, timeoutMs: 120_000 }
    const v = await runNode(pgload, ['--version'], opts)
    assert.equal(v.code, 0, v.stderr)
    assert.equal(v.stdout.trim(), `pgload ${version}`)
    const init = await runNode(pgload, ['init', 'tpcb', '--scale', '1', '--force', '--url', server.url], opts)
    assert.equal(init.code, 0, init.stderr)
    const out = join(dir, 'run.json')
    const run = await runNode(pgload, ['run', 'tpcb', '-T', '3s', '-c', '2', '--url', server.url, '-o', out], opts)
    assert.equal(run.code, 0, run.stderr)
    const doc = JSON.parse(readFileSync(out, 'utf8'))
    assert.ok(doc.summary.transactions > 0, 'transactions were committed')
    assert.deepEqual([doc.tool.name, doc.tool.version], ['pgload', version])
  })
})
