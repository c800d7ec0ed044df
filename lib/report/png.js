// SVG text -> PNG bytes with @resvg/resvg-js (a native rasteriser shipped in npm), using only the
// vendored DejaVu Sans fonts so the output does not depend on the machine's fonts.

import { FONT_FAMILY, fontFiles } from './fonts.js'

/** Pixels per SVG unit: 2 keeps the text sharp on high-density screens and in documents. */
const PNG_SCALE = 2

let Resvg = null

/**
 * Rasterise an SVG document.
 * @param {string} svg
 * @param {{ scale?: number }} [opts]
 * @returns {Promise<Buffer>}
 */
export async function svgToPng (svg, opts = {}) {
  Resvg ??= (await import('@resvg/resvg-js')).Resvg
  return new Resvg(svg, rasterOptions(opts.scale)).render().asPng()
}

/**
 * The resvg options PNG rendering uses (vendored fonts only, white background).
 * @param {number} [scale]
 * @returns {object}
 */
export function rasterOptions (scale = PNG_SCALE) {
  return {
    fitTo: { mode: 'zoom', value: scale },
    background: 'white',
    font: {
      loadSystemFonts: false,
      fontFiles: fontFiles(),
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY
    }
  }
}
