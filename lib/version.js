// pgload's own version, read once from package.json.

import { readFileSync } from 'node:fs'

/** @type {string} */
export const TOOL_VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version
