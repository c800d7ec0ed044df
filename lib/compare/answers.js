// CH-benCHmark's analytic queries in a verdict. Answers that changed between A and B: the
// workload records a checksum of each query's rows; where both sides checked a query's answer
// (the data held still) and the checksums differ, the configuration changed what the query
// returns. That is reported as such, never averaged. And which queries' times differ, in a line.

/** The checksums a run's checked answer of `name` was seen with, first one first. */
function checksumsOf (doc, name) {
  const a = doc.chbench?.perQuery?.[name]?.answer
  if (!a || !a.checked) return null
  return [a.checksum, ...a.differing.map((d) => d.checksum)]
}

/**
 * Per query whose checked answer differs between the sides (or between runs of one side): the
 * checksums each side saw.
 * @param {object[]} as results documents of A
 * @param {object[]} bs results documents of B
 * @returns {{ query: string, a: string[], b: string[] }[]}
 */
export function answerChanges (as, bs) {
  const names = new Set([...as, ...bs].flatMap((d) => Object.keys(d.chbench?.perQuery ?? {})))
  const changes = []
  for (const name of names) {
    const sa = as.map((d) => checksumsOf(d, name))
    const sb = bs.map((d) => checksumsOf(d, name))
    // a side where no run checked the query says nothing about its answer
    if (!sa.some(Boolean) || !sb.some(Boolean)) continue
    const a = [...new Set(sa.filter(Boolean).flat())]
    const b = [...new Set(sb.filter(Boolean).flat())]
    if (a.length === 1 && b.length === 1 && a[0] === b[0]) continue
    changes.push({ query: name, a, b })
  }
  return changes
}

/**
 * The lines that say so, for the text and markdown verdicts.
 * @param {{ answers?: { query: string, a: string[], b: string[] }[] }} v
 * @returns {string[]}
 */
export function answerChangeLines (v) {
  return (v.answers ?? []).map((c) => `answer changed: ${c.query} (checksum A ${c.a.join('/')}, B ${c.b.join('/')}): the query returned other rows`)
}

const QUERY_TYPE = /^q\d+$/

/**
 * The analytic queries whose latency the verdict called better or worse, named in one line (a
 * CH-benCHmark verdict's table has 88 query rows); null when none was.
 * @param {{ rows: { txn: string|null, metric: string, verdict: string, change?: { estimate: number }|null }[] }} v
 * @returns {string|null}
 */
export function queryVerdictLine (v) {
  const called = new Map()
  for (const r of v.rows) {
    if (!r.txn || !QUERY_TYPE.test(r.txn) || r.verdict === '~' || called.has(r.txn)) continue
    const pct = r.change ? ` (${r.metric} ${r.change.estimate >= 0 ? '+' : ''}${(r.change.estimate * 100).toFixed(1)}%)` : ''
    called.set(r.txn, `${r.txn} ${r.verdict === 'better' ? 'faster' : 'slower'}${pct}`)
  }
  return called.size ? `analytic queries whose time differs: ${[...called.values()].join(', ')}` : null
}
