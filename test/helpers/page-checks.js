// What a person sees on a page pgload makes, checked in headless Chromium: nothing drawn past its
// chart's box or the window, no template placeholder left in the text, no two labels drawn over
// each other (nor two tick labels run together), over a legend or across a dashed marker, no
// stage's or step's number over a data line, every legend entry drawn and naming a
// series of the data, every mark a subtitle lists present. A screenshot of each page is kept
// under test-output/screenshots. The page reports what it drew (sizes, the Vega scenegraphs'
// boxes); the judging happens here.

import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { join } from 'node:path'

/** Where the screenshots go (git-ignored; CI keeps the folder as a build artefact). */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url))

const NEAR = 1.5 // px of slack for rounding

/**
 * Open a page pgload wrote and wait until its charts are drawn, keeping what its console said in
 * error or warning and every request it made (a self-contained page makes none but its own).
 * @param {any} page a playwright Page
 * @param {string} file
 * @returns {Promise<{ problems: string[], requests: string[] }>}
 */
export async function openReportPage (page, file) {
  const problems = []
  const requests = []
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`) })
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('request', (r) => requests.push(r.url()))
  await page.goto(pathToFileURL(file).href)
  await page.waitForFunction(() => window.pgloadReport?.done === true, null, { timeout: 30_000 })
  return { problems, requests }
}

/**
 * Keep every Vega view a page embeds, on window.__pgloadViews (with its container), whether or
 * not the page keeps them itself: vegaEmbed is wrapped when its bundle defines it. Call before
 * page.goto.
 * @param {any} page a playwright Page
 */
export async function keepVegaViews (page) {
  await page.addInitScript(() => {
    const views = window.__pgloadViews = []
    let embed
    Object.defineProperty(window, 'vegaEmbed', {
      configurable: true,
      get: () => embed,
      set (original) {
        const wrapped = async (el, spec, opts) => {
          const result = await original(el, spec, opts)
          views.push({ el: typeof el === 'string' ? document.querySelector(el) : el, view: result.view })
          return result
        }
        embed = Object.assign(wrapped, original)
      }
    })
  })
}

/**
 * In the page: the window's width and the page's, and per chart the box of its drawing and of
 * every svg, canvas, details, summary and img in it.
 */
function sizesInPage () {
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? `#${el.id}` : '')
  const size = (r) => ({ width: r.width, height: r.height })
  return {
    window: document.documentElement.clientWidth,
    page: document.documentElement.scrollWidth,
    charts: [...document.querySelectorAll('.chart')].map((chart) => {
      const drawn = [...chart.querySelectorAll('.marks')].map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0)
      const box = drawn.length === 0
        ? null
        : { width: Math.max(...drawn.map((r) => r.right)) - Math.min(...drawn.map((r) => r.left)), height: Math.max(...drawn.map((r) => r.bottom)) - Math.min(...drawn.map((r) => r.top)) }
      const parts = [...chart.querySelectorAll('svg, canvas, details, summary, img')].map((el) => ({ what: describe(el), ...size(el.getBoundingClientRect()) }))
      return { name: chart.getAttribute('aria-label') ?? chart.id, box, parts }
    })
  }
}

/**
 * In the page: per Vega view (the last embedded in each element still there), the boxes of its
 * text items, legends and dashed rules in one frame, and what its user marks drew.
 */
function scenesInPage () {
  const vega = window.vegaEmbed?.vega ?? window.vega
  const latest = new Map((window.__pgloadViews ?? []).filter((v) => v.el?.isConnected).map((v) => [v.el, v.view]))
  const dashed = (it) => (Array.isArray(it.strokeDash) ? it.strokeDash.length > 0 : Boolean(it.strokeDash))
  return [...latest].map(([el, view]) => {
    const out = { name: el.closest('.chart')?.getAttribute('aria-label') ?? el.id, texts: [], legends: [], rules: [], marks: [], segments: [] }
    const strings = new Set()
    const collect = (v, depth) => {
      if (typeof v === 'string') strings.add(v)
      else if (v && typeof v === 'object' && depth < 4) for (const x of Object.values(v)) collect(x, depth + 1)
    }
    collect(view.getState({ data: vega.truthy, signals: vega.falsy, recurse: true }).data, 0)
    const walk = (scene, ox, oy, legend) => {
      const box = (b) => ({ x1: ox + b.x1, y1: oy + b.y1, x2: ox + b.x2, y2: oy + b.y2 })
      const items = (scene.items ?? []).filter((it) => it.opacity !== 0)
      if (scene.marktype !== 'group' && scene.role === 'mark' && items.length > 0) {
        out.marks.push({
          type: scene.marktype,
          dashed: items.some(dashed),
          words: [...new Set(items.flatMap((it) => Object.values(it.datum ?? {}).filter((v) => typeof v === 'string')))].slice(0, 50)
        })
      }
      if (scene.marktype === 'line' && scene.role === 'mark') {
        // the data lines, as segments between their points
        const pts = items.filter((it) => Number.isFinite(it.x) && Number.isFinite(it.y))
        for (let i = 1; i < pts.length; i++) out.segments.push([ox + pts[i - 1].x, oy + pts[i - 1].y, ox + pts[i].x, oy + pts[i].y])
      }
      for (const item of scene.items ?? []) {
        if (scene.marktype === 'group') {
          let inLegend = legend
          if (scene.role === 'legend' && legend === null) out.legends.push(inLegend = { ...box(item.bounds), index: out.legends.length, labels: [], symbols: 0, fills: [] })
          for (const child of item.items ?? []) walk(child, ox + (item.x ?? 0), oy + (item.y ?? 0), inLegend)
        } else if (scene.role === 'legend-symbol' && legend) {
          legend.symbols++
          legend.fills.push(item.fill ?? item.stroke ?? null)
        } else if (scene.marktype === 'rule' && scene.role === 'mark' && dashed(item) && item.bounds) {
          out.rules.push(box(item.bounds))
        } else if (scene.marktype === 'text') {
          const text = [item.text ?? ''].flat().join('; ').trim()
          // a stage's number (its band's datum has a mid) or a stage's or step's point number (a datum told which side to take)
          const staged = item.datum !== null && typeof item.datum === 'object' && ('mid' in item.datum || ('above' in item.datum && 'stat' in item.datum))
          const t = { role: scene.role, text, hidden: item.opacity === 0 || item.fillOpacity === 0, legend: legend?.index ?? null, staged, ...box(item.bounds) }
          if (scene.role === 'legend-label' && legend) legend.labels.push({ ...t, inData: strings.has(text) })
          if (text && !t.hidden) out.texts.push(t)
        }
      }
    }
    walk(view.scenegraph().root, 0, 0, null)
    return out
  })
}

/** Problems of size: a page wider than the window, a part of a chart larger than its drawing. */
function sizeProblems ({ window, page, charts }) {
  const problems = page > window + NEAR ? [`page is ${page}px wide in a ${window}px window`] : []
  const px = (r) => `${Math.round(r.width)}x${Math.round(r.height)}px`
  for (const { name, box, parts } of charts) {
    if (box === null) continue
    for (const p of parts) {
      if (p.width > window + NEAR) problems.push(`${name}: ${p.what} is ${Math.round(p.width)}px wide in a ${window}px window`)
      if (p.width > box.width + NEAR || p.height > box.height + NEAR) problems.push(`${name}: ${p.what} of ${px(p)} is larger than the chart's ${px(box)}`)
    }
  }
  return problems
}

const overlap = (a, b) => Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) > NEAR && Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) > NEAR
// a rule is a line: it crosses a label when it passes through the label's box at all
const across = (a, r) => Math.min(a.x2, r.x2) - Math.max(a.x1, r.x1) >= 0 && Math.min(a.y2, r.y2) - Math.max(a.y1, r.y1) > NEAR

// two tick labels of one axis row with no room between them read as one number ("480500")
const runTogether = (a, b) => a.role === 'axis-label' && b.role === 'axis-label' && Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) > NEAR &&
  Math.max(a.x1, b.x1) - Math.min(a.x2, b.x2) < 2

/** Whether the segment from (x1, y1) to (x2, y2) passes through the box (shrunk by NEAR): sampled along it. */
function crossesBox ([x1, y1, x2, y2], b) {
  const steps = Math.ceil(Math.hypot(x2 - x1, y2 - y1))
  for (let k = 0; k <= steps; k++) {
    const x = x1 + (x2 - x1) * k / steps
    const y = y1 + (y2 - y1) * k / steps
    if (x > b.x1 + NEAR && x < b.x2 - NEAR && y > b.y1 + NEAR && y < b.y2 - NEAR) return true
  }
  return false
}

/**
 * Labels over labels (an axis' tick labels too, or two of them run together), over legends,
 * across dashed markers, and a stage's or step's number drawn over a data line.
 */
function labelProblems ({ name, texts, legends, rules, segments = [] }) {
  const problems = []
  texts.forEach((a, i) => {
    for (const b of texts.slice(i + 1)) {
      if (overlap(a, b)) problems.push(`${name}: label "${a.text}" overlaps label "${b.text}"`)
      else if (runTogether(a, b)) problems.push(`${name}: labels "${a.text}" and "${b.text}" run together`)
    }
    if (a.staged && segments.some((sg) => crossesBox(sg, a))) problems.push(`${name}: label "${a.text}" is drawn over a data line`)
    for (const l of legends) if (a.legend !== l.index && overlap(a, l)) problems.push(`${name}: label "${a.text}" overlaps a legend`)
    if (a.role === 'mark' && rules.some((r) => across(a, r))) problems.push(`${name}: label "${a.text}" is drawn across a dashed marker`)
  })
  return problems
}

/** Legend entries not drawn, or naming no series of the data (a gradient legend's are numbers). */
function legendProblems ({ name, legends }) {
  const problems = []
  for (const l of legends.filter((x) => x.symbols > 0)) {
    for (const lab of l.labels) {
      if (lab.hidden || !lab.text || lab.x2 - lab.x1 <= 0 || lab.y2 - lab.y1 <= 0) problems.push(`${name}: legend entry "${lab.text}" not drawn`)
      else if (!lab.inData) problems.push(`${name}: legend entry "${lab.text}" names no series in the data`)
    }
  }
  return problems
}

/**
 * Marks a subtitle lists but the chart does not draw: "shaded: checkpoint" needs a band whose
 * data names a checkpoint, each "dashed ..:" or "dotted ..:" a dashed mark of its own, "labels:"
 * a text mark.
 */
function subtitleProblems ({ name, texts, marks }) {
  const problems = []
  const subtitle = texts.filter((t) => t.role === 'title-subtitle').map((t) => t.text).join('; ')
  const clauses = [...subtitle.matchAll(/(?:^|[;,(]\s*)(shaded|dashed(?: \w+)?|dotted(?: \w+)?|numbered bands|labels): ([^;,)]+)/g)]
  const dashedMarks = marks.filter((m) => m.dashed).length
  let dashedClauses = 0
  for (const [, style, what] of clauses) {
    let found
    if (style === 'shaded' || style === 'numbered bands') {
      const word = what.replace(/^the /, '').replace(/s$/, '').split(' ')[0].toLowerCase()
      found = marks.some((m) => ['rect', 'area'].includes(m.type) && m.words.some((w) => w.toLowerCase().includes(word)))
    } else if (style === 'labels') {
      found = marks.some((m) => m.type === 'text')
    } else {
      found = ++dashedClauses <= dashedMarks
    }
    if (!found) problems.push(`${name}: the subtitle says "${style}: ${what}" but no such mark is drawn`)
  }
  return problems
}

/**
 * Look at a page as a person would and keep its screenshot as test-output/screenshots/<name>.png.
 * The page must have been opened after keepVegaViews, and its charts drawn.
 * @param {any} page a playwright Page
 * @param {string} name the screenshot's name
 * @returns {Promise<{ problems: string[], shot: string }>}
 */
export async function lookAtPage (page, name) {
  const sizes = await page.evaluate(sizesInPage)
  const problems = sizeProblems(sizes)
  const text = await page.evaluate(() => document.body.innerText)
  for (const m of text.matchAll(/\{\{[^}]*\}\}|\$\{[^}]*\}/g)) problems.push(`placeholder in the page's text: ${m[0]}`)
  const scenes = await page.evaluate(scenesInPage)
  // every chart drawn is looked into (a page opened without keepVegaViews would pass unseen)
  const drawn = sizes.charts.filter((c) => c.box !== null).length
  if (scenes.length < drawn) problems.push(`${drawn} charts drawn, ${scenes.length} of them seen as Vega views`)
  for (const scene of scenes) problems.push(...labelProblems(scene), ...legendProblems(scene), ...subtitleProblems(scene))
  mkdirSync(SCREENSHOTS, { recursive: true })
  const shot = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path: shot, fullPage: true })
  return { problems, shot }
}

/**
 * What the page's charts draw, per chart: the subtitle, the axes' titles, the types of the marks
 * drawn, and each symbol legend's entries with their colours ({ label: colour }).
 * @param {any} page a playwright Page opened after keepVegaViews
 * @returns {Promise<{ name: string, subtitle: string, axes: string[], marks: string[], legends: Record<string, string>[] }[]>}
 */
export async function chartsDrawn (page) {
  const scenes = await page.evaluate(scenesInPage)
  return scenes.map(({ name, texts, marks, legends }) => ({
    name,
    subtitle: texts.filter((t) => t.role === 'title-subtitle').map((t) => t.text).join('; '),
    axes: texts.filter((t) => t.role === 'axis-title').map((t) => t.text),
    marks: marks.map((m) => m.type),
    legends: legends.filter((l) => l.symbols > 0).map((l) => Object.fromEntries(l.labels.map((lab, i) => [lab.text, l.fills[i]])))
  }))
}

/**
 * lookAtPage, then fail with every problem found.
 * @param {any} page
 * @param {string} name
 * @returns {Promise<string>} the screenshot's path
 */
export async function assertPageLooksRight (page, name) {
  const { problems, shot } = await lookAtPage(page, name)
  assert.deepEqual(problems, [], `${name} (screenshot ${shot})`)
  return shot
}
