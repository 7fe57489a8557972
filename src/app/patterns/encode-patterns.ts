/**
 * `patterns encode`: one session's transcript → entries in the project's domain files (seed 002
 * items 2, 3, 4, 7, 9). The transcript is the source, never MEMORY.md. Lessons come from the
 * transcript's structure (error → fix pairs, compaction summaries, decisions, corrections) and from
 * the model's `extractPatterns`; only complete Observation / Details / Context entries are kept.
 */

import { utcDay } from '../../core/dates.ts'
import type { Unit } from '../../core/model-results.ts'
import {
  type EncodePlan,
  type PatternCandidate,
  planEncode,
} from '../../core/patterns/encode-plan.ts'
import {
  domainSlug,
  isCompleteEntry,
  PATTERN_CATEGORIES,
  type PatternCategory,
  renderPatternFile,
} from '../../core/patterns/pattern-entry.ts'
import { SessionLessonCollector } from '../../core/patterns/session-lessons.ts'
import { TranscriptUnitCollector } from '../../core/transcript/transcript-units.ts'
import type { LanguageModel, Pattern } from '../../ports/language-model.ts'
import type { PatternWorkspace } from './pattern-workspace.ts'
import { readPatternFiles } from './read-patterns.ts'

/** What one encode did. */
export interface EncodeResult {
  sessionId: string
  /** Candidates found before merging (complete ones only). */
  found: number
  added: EncodePlan['added']
  updated: EncodePlan['updated']
  superseded: EncodePlan['superseded']
  /** Domain files written (names relative to the pattern folder). */
  written: string[]
  dryRun: boolean
}

/** Encodes the session whose JSONL lines `lines` yields (main transcript, then sub-agent files). */
export async function encodePatterns(
  workspace: PatternWorkspace,
  request: {
    sessionId: string
    lines: AsyncIterable<string>
    model?: LanguageModel
    dryRun?: boolean
  },
): Promise<EncodeResult> {
  const lessons = new SessionLessonCollector()
  const units = new TranscriptUnitCollector({ sinceMs: null })
  for await (const line of request.lines) {
    lessons.addLine(line)
    units.addLine(line)
  }
  units.finish()
  const candidates = [
    ...lessons.lessons(request.sessionId),
    ...(request.model ? await modelPatterns(request.model, units.units, request.sessionId) : []),
  ].filter(isCompleteEntry)
  const date = utcDay(workspace.clock.now())
  const write = async () => {
    const existing = await readPatternFiles(workspace)
    const plan = planEncode({ existing, candidates, sessionId: request.sessionId, date })
    const written: string[] = []
    if (!request.dryRun) {
      for (const [domain, file] of plan.files) {
        await workspace.patterns.write(`${domain}.md`, renderPatternFile(file))
        written.push(`${domain}.md`)
      }
    }
    return { plan, written }
  }
  const { plan, written } = request.dryRun ? await write() : await workspace.exclusive(write)
  return {
    sessionId: request.sessionId,
    found: candidates.length,
    added: plan.added,
    updated: plan.updated,
    superseded: plan.superseded,
    written,
    dryRun: request.dryRun === true,
  }
}

/** The model's patterns as candidates citing the session first. */
async function modelPatterns(
  model: LanguageModel,
  units: Unit[],
  sessionId: string,
): Promise<PatternCandidate[]> {
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
    sources: [...new Set([sessionId, ...pattern.sources])],
  }))
}

function categoryOf(tags: readonly string[]): PatternCategory {
  return (
    ((PATTERN_CATEGORIES as readonly string[]).find((category) => tags.includes(category)) as
      | PatternCategory
      | undefined) ?? 'effective-approach'
  )
}
