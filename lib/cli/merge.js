// `pgload merge FILES... -o merged.json`: the results files of the shards of one run, merged
// exactly into one results document that report, compare and check read.

import { resolve } from 'node:path'
import { PgloadError } from '../errors.js'
import { readResults } from '../results/read.js'
import { mergeResults } from '../results/merge.js'
import { writeResults, ensureWritable } from '../results/write.js'
import { parseOutputPath } from '../options/parse.js'
import { mergeTpccSection } from '../../workloads/tpcc/merge-results.js'
import { plural } from '../format/plural.js'

export const command = 'merge <results..>'
export const describe = 'Merge the results files of the shards of one run (--shard) into one results document'

/** Workload sections the merge computes again from the merged figures. */
const SECTIONS = { tpcc: mergeTpccSection }

/** @param {import('yargs').Argv} yargs */
export function builder (yargs) {
  return yargs
    .positional('results', { type: 'string', array: true, describe: 'results files of every shard of one run (pgload run --shard K/N)' })
    .option('out', { alias: 'o', type: 'string', describe: 'the merged results file (required)' })
}

/** @param {any} argv */
export async function handler (argv) {
  const files = argv.results
  const out = parseOutputPath(argv.out, '--out')
  if (out === undefined) throw new PgloadError('--out is required: the file the merged results go to, e.g. -o merged.json', { code: 'BAD_OPTION' })
  // never write over what is being merged
  if (files.some((f) => resolve(f) === resolve(out))) throw new PgloadError(`--out ${out} is one of the files to merge: give another file`, { code: 'BAD_OPTION' })
  const docs = []
  for (const file of files) docs.push(await readResults(file))
  // a run of one process is already whole: merging it with others would add unrelated runs
  if (docs.every((d) => !d.run?.shard)) {
    throw new PgloadError(`cannot merge: ${files[0]} is not a shard's results: pgload merge takes the files of every shard of one run (pgload run --shard K/N)`, { code: 'RESULTS_MISMATCH' })
  }
  const merged = mergeResults(docs, { sources: files, sections: SECTIONS })
  await ensureWritable(out)
  await writeResults(out, merged)
  process.stdout.write(mergedLine(merged))
  process.stderr.write(`pgload: results written to ${out}\n`)
}

/** `merged 4 shards of run pgload-...: 12345 transactions, 2057.5 tps, p99 3.210 ms; start skew 0.412 ms` */
function mergedLine (merged) {
  const s = merged.summary
  const what = `${plural(merged.run.shards.count, 'shard')} of run ${merged.run.shards.runId}`
  const skew = merged.run.shards?.startSkewMs
  const p99 = s.latencyMs?.p99
  return `merged ${what}: ${plural(s.transactions, 'transaction')}, ${s.failed ?? 0} failed, ${s.tps} tps, p99 ${p99 === null || p99 === undefined ? '-' : `${p99} ms`}` +
    (merged.tpcc ? `, tpmC ${merged.tpcc.tpmC}` : '') +
    (skew === null || skew === undefined ? '' : `; start skew ${skew} ms`) + '\n'
}
