// What a person sees on a page pgload makes, checked in headless Chromium: nothing drawn past its
// chart's box or the window, no template placeholder left in the text, no two labels drawn over
// each other, over a legend or across a dashed marker, every legend entry drawn and naming a
// series of the data, every mark a subtitle lists present. A screenshot of each page is kept under test-output/screenshots.

import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'

/** Where the screenshots go (git-ignored; CI keeps the folder as a build artefact). */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url))

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
 * The checks, run in the page (self-contained: playwright sends its source).
 * @returns {string[]} one line per problem
 */
function lookInPage () {
  const problems = []
  const vega = window.vegaEmbed?.vega ?? window.vega
  const near = 1.5 // px of slack for rounding
  const rect = (el) => el.getBoundingClientRect()
  const describe = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className?.baseVal ?? (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : '')}`

  // 1. Sizes: nothing wider than the window; nothing in a chart wider or taller than its drawing.
  const vw = document.documentElement.clientWidth
  if (document.documentElement.scrollWidth > vw + near) problems.push(`page is ${document.documentElement.scrollWidth}px wide in a ${vw}px window`)
  for (const chart of document.querySelectorAll('.chart')) {
    const name = chart.getAttribute('aria-label') ?? chart.id
    const drawn = [...chart.querySelectorAll('.marks')].map(rect).filter((r) => r.width > 0)
    if (drawn.length === 0) continue
    const width = Math.max(...drawn.map((r) => r.right)) - Math.min(...drawn.map((r) => r.left))
    const box = { width, height: Math.max(...drawn.map((r) => r.bottom)) - Math.min(...drawn.map((r) => r.top)) }
    for (const el of chart.querySelectorAll('svg, canvas, details, summary, img')) {
      const r = rect(el)
      if (r.width === 0 && r.height === 0) continue
      if (r.width > vw + near) problems.push(`${name}: ${describe(el)} is ${Math.round(r.width)}px wide in a ${vw}px window`)
      if (r.width > box.width + near || r.height > box.height + near) {
        problems.push(`${name}: ${describe(el)} of ${Math.round(r.width)}x${Math.round(r.height)}px is larger than the chart's ${Math.round(box.width)}x${Math.round(box.height)}px`)
      }
    }
  }

  // 2. Template placeholders left in what a person reads.
  for (const m of document.body.innerText.matchAll(/\{\{[^}]*\}\}|\$\{[^}]*\}/g)) problems.push(`placeholder in the page's text: ${m[0]}`)

  // 3-5. Each Vega view's scenegraph: labels, legends, marks the subtitle lists.
  // the last view embedded in each element still on the page (the dashboard embeds again)
  const latest = new Map((window.__pgloadViews ?? []).filter((v) => v.el?.isConnected).map((v) => [v.el, v.view]))
  for (const [el, view] of latest) {
    const name = el.closest('.chart')?.getAttribute('aria-label') ?? el.id
    const texts = []
    const legends = []
    const marks = []
    const rules = [] // dashed rules: markers a label must not be drawn across
    let markId = 0
    const walk = (scene, ox, oy, legend) => {
      const id = markId++
      if (scene.marktype !== 'group') marks.push(scene)
      for (const item of scene.items ?? []) {
        if (scene.marktype === 'group') {
          const inLegend = legend ?? (scene.role === 'legend' ? { x1: ox + item.bounds.x1, y1: oy + item.bounds.y1, x2: ox + item.bounds.x2, y2: oy + item.bounds.y2, labels: [], symbols: 0 } : null)
          if (scene.role === 'legend' && !legend) legends.push(inLegend)
          for (const child of item.items ?? []) walk(child, ox + (item.x ?? 0), oy + (item.y ?? 0), inLegend)
          continue
        }
        if (scene.role === 'legend-symbol' && legend) legend.symbols++
        const b = item.bounds
        const dashed = Array.isArray(item.strokeDash) ? item.strokeDash.length > 0 : Boolean(item.strokeDash)
        if (scene.marktype === 'rule' && scene.role === 'mark' && dashed && b) rules.push({ x1: ox + b.x1, y1: oy + b.y1, x2: ox + b.x2, y2: oy + b.y2 })
        if (scene.marktype !== 'text') continue
        const text = [item.text ?? ''].flat().join('; ').trim()
        const hidden = item.opacity === 0 || item.fillOpacity === 0
        const t = { mark: id, role: scene.role, text, hidden, x1: ox + b.x1, y1: oy + b.y1, x2: ox + b.x2, y2: oy + b.y2, legend }
        if (scene.role === 'legend-label' && legend) legend.labels.push(t)
        if (text && !hidden) texts.push(t)
      }
    }
    walk(view.scenegraph().root, 0, 0, null)
    const cross = (a, b) => Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) > near && Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) > near
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const a = texts[i]
        const b = texts[j]
        // labels of one axis or legend are vega's to space; labels of one text mark are ours
        if (a.mark === b.mark && a.role !== 'mark') continue
        if (cross(a, b)) problems.push(`${name}: label "${a.text}" overlaps label "${b.text}"`)
      }
      for (const l of legends) {
        if (texts[i].legend !== l && cross(texts[i], l)) problems.push(`${name}: label "${texts[i].text}" overlaps a legend`)
      }
      // a rule is a line: it crosses a label when it passes through the label's box at all
      const across = (a, r) => Math.min(a.x2, r.x2) - Math.max(a.x1, r.x1) >= 0 && Math.min(a.y2, r.y2) - Math.max(a.y1, r.y1) > near
      if (texts[i].role === 'mark' && rules.some((r) => across(texts[i], r))) problems.push(`${name}: label "${texts[i].text}" is drawn across a dashed marker`)
    }
    // Legend entries: drawn, with a size, and naming something in the data.
    const strings = new Set()
    const collect = (v, depth) => {
      if (typeof v === 'string') strings.add(v)
      else if (v && typeof v === 'object' && depth < 4) for (const x of Object.values(v)) collect(x, depth + 1)
    }
    const state = view.getState({ data: vega.truthy, signals: vega.falsy, recurse: true })
    collect(state.data, 0)
    for (const l of legends) {
      if (l.symbols === 0) continue // a gradient legend: its labels are numbers of a scale
      for (const lab of l.labels) {
        if (lab.hidden || !lab.text || lab.x2 - lab.x1 <= 0 || lab.y2 - lab.y1 <= 0) problems.push(`${name}: legend entry "${lab.text}" not drawn`)
        else if (!strings.has(lab.text)) problems.push(`${name}: legend entry "${lab.text}" names no series in the data`)
      }
    }
    // What the subtitle says is drawn: "shaded: checkpoint", "dashed: thresholds", "labels: ..."
    const drawnItems = (m) => (m.items ?? []).filter((it) => it.opacity !== 0)
    const userMarks = marks.filter((m) => m.role === 'mark' && drawnItems(m).length > 0)
    const subtitle = texts.filter((t) => t.role === 'title-subtitle').map((t) => t.text).join('; ')
    for (const [, style, what] of subtitle.matchAll(/(?:^|[;,(]\s*)(shaded|dashed(?: \w+)?|dotted(?: \w+)?|numbered bands|labels): ([^;,)]+)/g)) {
      let found
      if (style === 'shaded' || style === 'numbered bands') {
        const word = what.replace(/^the /, '').replace(/s$/, '').split(' ')[0].toLowerCase()
        found = userMarks.some((m) => ['rect', 'area'].includes(m.marktype) && drawnItems(m).some((it) =>
          Object.values(it.datum ?? {}).some((v) => typeof v === 'string' && v.toLowerCase().includes(word))))
      } else if (style === 'labels') {
        found = userMarks.some((m) => m.marktype === 'text')
      } else {
        found = userMarks.some((m) => drawnItems(m).some((it) => Array.isArray(it.strokeDash) ? it.strokeDash.length > 0 : Boolean(it.strokeDash)))
      }
      if (!found) problems.push(`${name}: the subtitle says "${style}: ${what}" but no such mark is drawn`)
    }
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
  const problems = await page.evaluate(lookInPage)
  mkdirSync(SCREENSHOTS, { recursive: true })
  const shot = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path: shot, fullPage: true })
  return { problems, shot }
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
