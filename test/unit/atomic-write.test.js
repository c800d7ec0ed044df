// writeFileAtomic: the temporary file is flushed before the rename and the directory after it,
// the content arrives whole, and a failed write leaves no temporary file behind.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as fsPromises from 'node:fs/promises'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { writeFileAtomic } from '../../lib/atomic-write.js'

/** The real file system, with every call that matters for durability logged in order. */
function loggingFs (log, { failOn } = {}) {
  const step = async (name, fn) => {
    log.push(name)
    if (failOn === name) throw Object.assign(new Error(`${name} failed`), { code: 'EIO' })
    return fn()
  }
  return {
    open: async (path, flags) => {
      const kind = flags === 'w' ? 'file' : 'dir'
      const handle = await step(`open ${kind}`, () => fsPromises.open(path, flags))
      return {
        writeFile: (data) => step(`write ${kind}`, () => handle.writeFile(data)),
        sync: () => step(`sync ${kind}`, () => handle.sync()),
        close: () => step(`close ${kind}`, () => handle.close())
      }
    },
    rename: (from, to) => step('rename', () => fsPromises.rename(from, to)),
    unlink: (path) => step('unlink', () => fsPromises.unlink(path))
  }
}

async function withDir (fn) {
  const dir = await mkdtemp(join(tmpdir(), 'pgload-atomic-'))
  try { await fn(dir) } finally { await rm(dir, { recursive: true, force: true }) }
}

test('the file is flushed before the rename and its directory after, as PostgreSQL does', () => withDir(async (dir) => {
  const log = []
  const file = join(dir, 'results.json')
  await writeFileAtomic(file, '{"whole":true}', { fs: loggingFs(log) })
  assert.deepEqual(log, ['open file', 'write file', 'sync file', 'close file', 'rename', 'open dir', 'sync dir', 'close dir'])
  assert.equal(await readFile(file, 'utf8'), '{"whole":true}')
  assert.deepEqual(await readdir(dir), ['results.json'], 'no temporary file left')
}))

test('a write or flush that fails removes the temporary file and leaves the old file as it was', () => withDir(async (dir) => {
  const file = join(dir, 'results.json')
  await writeFileAtomic(file, 'old')
  for (const failOn of ['write file', 'sync file', 'rename']) {
    const log = []
    await assert.rejects(writeFileAtomic(file, 'new', { fs: loggingFs(log, { failOn }) }), { message: `${failOn} failed` })
    assert.equal(log.includes('unlink'), true, `${failOn}: the temporary file is removed`)
    assert.equal(log.includes('close file'), true, `${failOn}: the handle is closed`)
    assert.deepEqual(await readdir(dir), ['results.json'], `${failOn}: no temporary file left`)
    assert.equal(await readFile(file, 'utf8'), 'old')
  }
}))

test('a directory that cannot be flushed on this platform does not fail a write that is in place', () => withDir(async (dir) => {
  const file = join(dir, 'report.html')
  const fs = loggingFs([])
  const unsupported = { ...fs, open: (path, flags) => flags === 'w' ? fs.open(path, flags) : Promise.reject(Object.assign(new Error('EISDIR'), { code: 'EISDIR' })) }
  await writeFileAtomic(file, 'x'.repeat(100_000), { fs: unsupported })
  assert.equal((await readFile(file, 'utf8')).length, 100_000)
}))

test('a temporary file a killed writer left is removed at the next write; a live writer\'s is kept', () => withDir(async (dir) => {
  const file = join(dir, 'results.json')
  // a pid no process has: above the kernel's pid_max (at most 2^22)
  const dead = 4_194_304 + 17
  const live = process.ppid
  const stale = [`results.json.incomplete-${dead}.tmp`, `results.json.tmp-${dead}`]
  const kept = [`results.json.incomplete-${live}.tmp`, `other.json.incomplete-${dead}.tmp`, 'results.json.bak']
  for (const name of [...stale, ...kept]) await writeFile(join(dir, name), 'half a docu')
  await writeFileAtomic(file, '{"whole":true}')
  assert.deepEqual((await readdir(dir)).sort(), ['results.json', ...kept].sort())
  assert.equal(await readFile(file, 'utf8'), '{"whole":true}')
}))
