/** Slugs name brain files (`state/<slug>.md`, `knowledge/<slug>.md`), so they must be path-safe. */
import { SomnusError } from '../../engine/core/errors.ts'

/** The rule, as shown to a user whose slug broke it. */
export const SLUG_RULE =
  'lowercase letters, digits and single hyphens (a-z, 0-9, -), starting and ending with a letter or digit, at most 80 characters'

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** True when `text` follows SLUG_RULE. */
export function isSlug(text: string): boolean {
  return text.length <= 80 && SLUG_PATTERN.test(text)
}

/** Returns `text` when it is a valid slug; otherwise a USAGE error that states the rule. */
export function requireSlug(text: string, what: string): string {
  if (isSlug(text)) return text
  throw new SomnusError('USAGE', `"${text}" is not a valid ${what} slug: use ${SLUG_RULE}.`)
}

/** A slug made from a human name ("Fix Auth Bug!" → "fix-auth-bug"); '' when nothing is left. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '')
}
