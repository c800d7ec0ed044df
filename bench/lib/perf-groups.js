// Samples of `perf report --sort pid,dso,sym` (with V8's jitdump injected) summed into the
// function groups of a pgload transaction: the kernel, Node.js and V8's C++, libuv, and pgload's
// own JavaScript by room. Used by bench/perf-groups.js; docs/performance.md has the recipe.

/** The groups, first match wins: [name, test on `dso symbol`]. */
export const GROUPS = [
  ['kernel', /^\[kernel/],
  ['driver (lib/db)', /\/lib\/db\//],
  ['engine (lib/engine)', /\/lib\/engine\//],
  ['recorder (lib/metrics, histograms)', /\/lib\/metrics\/|hdr-histogram/],
  ['script interpreter (lib/script)', /\/lib\/script\//],
  ['workload (workloads/)', /\/workloads\//],
  ['timers (Node.js JS)', /node:internal\/timers|node:timers/],
  ['net, streams, worker messages (Node.js JS)', /node:internal\/stream|node:net|node:events|node:internal\/worker|messageport/i],
  ['other JS', /JS:/],
  ['GC', /Scavenge|Heap::|MarkCompact|GCTracer|Sweeper|Evacuat|Marking|MemoryAllocator|heap::/],
  ['V8 compiler and parser', /compiler::|maglev|Scanner|Parser|Compile|Bytecode|CalculateLineEnds|baseline/i],
  ['V8 builtins (ICs, calls)', /Builtins_/],
  ['libuv (event loop)', /\buv_|uv__|epoll/],
  ['Node.js and V8 C++ (callbacks into JS)', /node::|v8::/],
  ['libc (syscall stubs, malloc)', /libc\.so|libstdc|malloc|free|memmove|memcpy|pthread/]
]

/**
 * The group of one sampled symbol.
 * @param {string} dso e.g. `[kernel.kallsyms]`, `node`, `jitted-123-4.so`
 * @param {string} symbol as perf prints it (`[k] tcp_sendmsg`, `[.] JS:*parse file:///...`)
 * @returns {string}
 */
export function groupOf (dso, symbol) {
  const s = `${dso} ${symbol}`
  for (const [name, re] of GROUPS) if (re.test(s)) return name
  return 'other native'
}

/**
 * Sum the lines of `perf report -n --no-children --sort pid,dso,sym --stdio -t '|'` by group
 * (and by thread when asked).
 * @param {string} text the report
 * @param {{ byThread?: boolean }} [opts]
 * @returns {{ rows: { thread: string|null, group: string, samples: number }[], total: number }}
 */
export function groupReport (text, { byThread = false } = {}) {
  const sums = new Map()
  let total = 0
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const parts = line.split('|').map((p) => p.trim())
    if (parts.length < 5) continue
    const samples = Number(parts[1])
    if (!Number.isFinite(samples) || parts[1] === '') continue
    const thread = byThread ? parts[2] : null
    const group = groupOf(parts[3], parts.slice(4).join('|'))
    const key = `${thread}\u0000${group}`
    const row = sums.get(key) ?? { thread, group, samples: 0 }
    row.samples += samples
    sums.set(key, row)
    total += samples
  }
  return { rows: [...sums.values()].sort((a, b) => b.samples - a.samples), total }
}
