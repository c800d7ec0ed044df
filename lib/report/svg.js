// Vega-Lite spec -> SVG text in Node, through vega's headless view (no browser, no canvas).
// vega and vega-lite are ESM-only and load lazily: the import costs ~250 ms, paid once.

let libs = null

/** @returns {Promise<{ vega: any, vegaLite: any }>} */
export async function loadVega () {
  libs ??= Promise.all([import('vega'), import('vega-lite')]).then(([vega, vegaLite]) => ({ vega, vegaLite }))
  return libs
}

/**
 * Compile a Vega-Lite spec and render it to SVG. Vega warnings are collected, not printed.
 * @param {any} vlSpec
 * @returns {Promise<{ svg: string, warnings: string[] }>}
 */
export async function renderSvg (vlSpec) {
  const { vega, vegaLite } = await loadVega()
  const warnings = []
  const logger = {
    _level: 0,
    level (l) { if (l === undefined) return this._level; this._level = l; return this },
    error (...a) { warnings.push(a.join(' ')); return this },
    warn (...a) { warnings.push(a.join(' ')); return this },
    info () { return this },
    debug () { return this }
  }
  const compiled = vegaLite.compile(vlSpec, { logger }).spec
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logger, logLevel: vega.Warn })
  try {
    const svg = await view.toSVG()
    return { svg, warnings }
  } finally {
    view.finalize()
  }
}
