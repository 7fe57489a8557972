/** The project record in `core/`: `core changelog add` and `features list`. */

import {
  addChangelogEntry,
  CHANGE_TYPES,
  type ChangelogEntry,
  type ChangeType,
  parseJsonArray,
} from '../../engine/core/core-files.ts'
import { utcDay } from '../../engine/core/dates.ts'
import { SomnusError } from '../../engine/core/errors.ts'
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import type { FeatureSummary } from '../core/features.ts'
import { compareText } from '../core/snapshot/compare-text.ts'
import type { Brain } from './brain.ts'
import { readFeatures } from './brain-documents.ts'

/** Puts a dated entry at the top of `core/CHANGELOG.json`; a malformed file is left untouched. */
export async function addChangelog(
  brain: Brain,
  input: { message: string; type?: string },
): Promise<ChangelogEntry> {
  const type = input.type ?? 'feat'
  if (!(CHANGE_TYPES as readonly string[]).includes(type)) {
    throw new SomnusError(
      'USAGE',
      `Unknown change type "${type}": use one of ${CHANGE_TYPES.join(', ')}.`,
    )
  }
  // Redacted before it is made one line: a token wrapped over two lines is a secret only with its
  // line break (the brain's own write redaction comes after the flattening, too late).
  const message = redactSecrets(input.message).replace(/\s+/g, ' ').trim()
  if (message === '') {
    throw new SomnusError(
      'USAGE',
      'The changelog message is empty: `somnus core changelog add <message...>`.',
    )
  }
  const changelog = { kind: 'core', name: 'changelog' } as const
  const rows = parseJsonArray(await brain.files.read(changelog), brain.files.where(changelog))
  const entry = { date: utcDay(brain.clock.now()), type: type as ChangeType, message }
  await brain.files.write(changelog, addChangelogEntry(rows, entry))
  return entry
}

/** Feature PRDs, most recently updated first. */
export async function listFeatures(brain: Brain): Promise<FeatureSummary[]> {
  const features = await readFeatures(brain)
  return features.sort(
    (a, b) => compareText(b.updated ?? '', a.updated ?? '') || compareText(a.slug, b.slug),
  )
}
