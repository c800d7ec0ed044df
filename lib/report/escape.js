// Escaping for the HTML report: text and attribute values, and JSON inside a <script> element.

const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '/': '&#47;' }

/**
 * Escape any value for HTML text or a quoted attribute. `/` is escaped too, so that no user
 * string can form `://` (the report must hold no URLs).
 * @param {unknown} value
 * @returns {string}
 */
export function escapeHtml (value) {
  return String(value ?? '').replace(/[&<>"'/]/g, (c) => HTML_ESCAPES[c])
}

/**
 * JSON for a `<script type="application/json">` element: `<` becomes \u003c (no `</script`,
 * no `<!--`), `/` becomes \/ (no URL text), and U+2028/2029 are escaped.
 * @param {unknown} value
 * @returns {string}
 */
export function jsonForScript (value) {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\//g, '\\/')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
