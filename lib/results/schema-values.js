// The value rules every part of the results schema is built from (schema.js and the sections
// beside it): counts, amounts and texts, with or without null.

import { number, string, mapOf } from './rules.js'

export const count = number({ min: 0, integer: true })
export const countOrNull = number({ min: 0, integer: true, nullable: true })
export const amount = number({ min: 0 })
export const amountOrNull = number({ min: 0, nullable: true })
export const anyNumberOrNull = number({ nullable: true })
export const text = string()
export const textOrNull = string({ nullable: true })
export const counts = mapOf(count)
