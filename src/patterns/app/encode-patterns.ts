/**
 * `patterns encode`: one session → entries in the project's domain files (seed 002 items 2, 3, 4,
 * 7, 9). The transcript is the source, never MEMORY.md: its digest (error → cause → fix pairs,
 * decisions, the user's own words, the repeated workflow) gives the lessons, and a model asked
 * for patterns adds its own; only complete Observation / Details / Context entries are kept.
 */

import { utcDay } from '../../engine/core/dates.ts'
import type { SessionDigest } from '../../engine/core/digest/session-digest.ts'
import type { LanguageModel, Pattern } from '../../engine/ports/language-model.ts'
import { lessonsFromDigest } from '../core/digest-lessons.ts'
import { digestUnits } from '../core/digest-units.ts'
import { type EncodePlan, type PatternCandidate, planEncode } from '../core/encode-plan.ts'
import {
  domainSlug,
  isCompleteEntry,
  PATTERN_CATEGORIES,
  type PatternCategory,
  renderPatternFile,
} from '../core/pattern-entry.ts'
import { readEntryIds, recordEntryIds } from './entry-id-registry.ts'
import type { PatternWorkspace } from './pattern-workspace.ts'
import { readPatternFiles } from './read-patterns.ts'

/** What one encode did. */
export interface EncodeResult {
  sessionId: string
  /** The day the entries are dated: the session's (its last record's), else today. */
  date: string
  /** Candidates found before merging (complete ones only). */
  found: number
  added: EncodePlan['added']
  /** Entries this session had already written, refreshed. */
  updated: EncodePlan['updated']
  /** Entries of an earlier (partial) encode of this session that its whole reading no longer finds. */
  removed: EncodePlan['removed']
  superseded: EncodePlan['superseded']
  /** Domain files written (names relative to the pattern folder). */
  written: string[]
  dryRun: boolean
}

/**
 * Encodes the session `digest` describes (read with its sub-agent files, no budget to speak of).
 * `model` (other than the offline one) adds its own patterns, read from the digest's material.
 */
export async function encodePatterns(
  workspace: PatternWorkspace,
  request: {
    digest: SessionDigest
    /** The id entries cite (default: the digest's). */
    sessionId?: string
    model?: LanguageModel
    dryRun?: boolean
  },
): Promise<EncodeResult> {
  const sessionId = request.sessionId ?? request.digest.sessionId
  const candidates = [
    ...lessonsFromDigest(request.digest, sessionId),
    ...(request.model ? await modelPatterns(request.model, request.digest, sessionId) : []),
  ].filter(isCompleteEntry)
  const date = request.digest.date ?? utcDay(workspace.clock.now())
  const write = async () => {
    const existing = await readPatternFiles(workspace)
    const inFiles = [...existing.values()].flatMap((file) => file.entries.map((entry) => entry.id))
    const ids = await readEntryIds(workspace, inFiles)
    const plan = planEncode({
      existing,
      candidates,
      sessionId,
      date,
      issuedIds: ids.issued,
      skip: ids.crystallized,
    })
    const written: string[] = []
    if (!request.dryRun) {
      // Ids first: a crash between the two leaves ids issued and unused, never one issued twice.
      await recordEntryIds(workspace, { issued: plan.issued })
      for (const [domain, file] of plan.files) {
        await workspace.patterns.write(`${domain}.md`, renderPatternFile(file))
        written.push(`${domain}.md`)
      }
    }
    return { plan, written }
  }
  const { plan, written } = request.dryRun ? await write() : await workspace.exclusive(write)
  return {
    sessionId,
    date,
    found: candidates.length,
    added: plan.added,
    updated: plan.updated,
    removed: plan.removed,
    superseded: plan.superseded,
    written,
    dryRun: request.dryRun === true,
  }
}

/** The model's patterns from the digest's material, as candidates citing the session, then its records. */
async function modelPatterns(
  model: LanguageModel,
  digest: SessionDigest,
  sessionId: string,
): Promise<PatternCandidate[]> {
  const { units, sources } = digestUnits(digest)
  if (units.length === 0) return []
  const { value } = await model.extractPatterns({ units })
  return value.map((pattern: Pattern) => ({
    domain: domainSlug(pattern.domain),
    category: categoryOf(pattern.tags),
    title: pattern.title,
    observation: pattern.observation,
    details: pattern.details,
    context: pattern.context,
    tags: pattern.tags,
    sources: [...new Set([sessionId, ...pattern.sources.flatMap((id) => sources.get(id) ?? [id])])],
  }))
}

function categoryOf(tags: readonly string[]): PatternCategory {
  return (
    ((PATTERN_CATEGORIES as readonly string[]).find((category) => tags.includes(category)) as
      | PatternCategory
      | undefined) ?? 'effective-approach'
  )
}
