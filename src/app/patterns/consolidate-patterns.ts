/**
 * `patterns consolidate` (seed 002 items 5-8, 10): prune old entries, count, bail out early when no
 * domain can reach the threshold, then group similar entries with the model and crystallize groups
 * seen in enough sessions: domain knowledge into `.claude/skills/<domain>-<name>/SKILL.md`, rules
 * for every task into CLAUDE.md's Somnus section, each citing its observations. Crystallized
 * entries leave the pattern files (the skill keeps their provenance); MEMORY.md gets one reference
 * line per skill, and Somnus lines of skills that are gone are removed.
 */
import { type Crystal, censusOfPatterns, crystalsOf } from '../../core/patterns/consolidate-plan.ts'
import {
  type SkillReference,
  somnusSkillsIn,
  updateMemoryIndex,
} from '../../core/patterns/memory-index.ts'
import {
  type PatternEntry,
  type PatternFile,
  renderPatternFile,
} from '../../core/patterns/pattern-entry.ts'
import {
  citationsIn,
  claudeMdRuleOf,
  isSomnusSkill,
  renderSkill,
  skillNameOf,
  withClaudeMdRules,
} from '../../core/patterns/skill-document.ts'
import type { LanguageModel } from '../../ports/language-model.ts'
import type { PatternWorkspace } from './pattern-workspace.ts'
import { readPatternFiles } from './read-patterns.ts'

/** A skill consolidation wrote (or would write). */
export interface WrittenSkill {
  name: string
  /** Project-relative path of its SKILL.md. */
  path: string
  domain: string
  /** Entry ids it was made from. */
  entries: string[]
  /** Its citations, the earlier ones first. */
  citations: string[]
}

/** What a consolidation did (or, with `dryRun`, would do). */
export interface ConsolidateResult {
  /** Why it stopped before grouping, or null. */
  bailOut: string | null
  pruned: string[]
  perDomain: Record<string, number>
  tagFrequency: [string, number][]
  groups: number
  skills: WrittenSkill[]
  claudeMdRules: string[]
  memory: { path: string; added: string[]; removed: string[]; skipped: string[] } | null
  /** Every file written (or planned), with where it lives: `patterns:`, `project:` or `memory:`. */
  files: { path: string; text: string }[]
  dryRun: boolean
}

/** Consolidates the project's patterns; `model` groups the candidates. */
export async function consolidatePatterns(
  workspace: PatternWorkspace,
  request: { model: LanguageModel; dryRun?: boolean },
): Promise<ConsolidateResult> {
  const run = () => consolidate(workspace, request.model, request.dryRun === true)
  return request.dryRun ? run() : workspace.exclusive(run)
}

async function consolidate(
  workspace: PatternWorkspace,
  model: LanguageModel,
  dryRun: boolean,
): Promise<ConsolidateResult> {
  const { settings } = workspace
  const census = censusOfPatterns({
    files: await readPatternFiles(workspace),
    now: workspace.clock.now(),
    pruneDays: settings.prune_days,
    minOccurrences: settings.min_occurrences,
  })
  const result: ConsolidateResult = {
    bailOut: census.bailOut,
    pruned: census.pruned.map((entry) => entry.id),
    perDomain: census.perDomain,
    tagFrequency: census.tagFrequency.slice(0, 10),
    groups: 0,
    skills: [],
    claudeMdRules: [],
    memory: null,
    files: [],
    dryRun,
  }
  const patternFiles = new Map(census.files)
  let crystals: Crystal[] = []
  if (census.bailOut === null) {
    const entries = new Map(census.candidates.map((entry) => [entry.id, entry]))
    const { value: groups } = await model.groupSimilar({
      units: census.candidates.map((entry) => ({ id: entry.id, text: unitText(entry) })),
    })
    result.groups = groups.length
    crystals = crystalsOf({ groups, entries, minOccurrences: settings.min_occurrences })
  }
  const consolidated = new Set<string>()
  const memoryRefs: SkillReference[] = []
  for (const crystal of crystals) {
    for (const member of crystal.members) consolidated.add(member.id)
    if (crystal.placement === 'claude-md') {
      result.claudeMdRules.push(claudeMdRuleOf(crystal))
      continue
    }
    const skill = await skillFor(workspace, crystal)
    result.skills.push(skill.written)
    result.files.push({ path: `project:${skill.written.path}`, text: skill.text })
    memoryRefs.push({
      name: skill.written.name,
      path: skill.written.path,
      description: skill.description,
    })
  }
  if (result.claudeMdRules.length > 0) {
    const text = withClaudeMdRules(await workspace.project.read('CLAUDE.md'), result.claudeMdRules)
    result.files.push({ path: 'project:CLAUDE.md', text })
  }
  for (const [domain, file] of await withoutConsolidated(workspace, patternFiles, consolidated)) {
    result.files.push({ path: `patterns:${domain}.md`, text: renderPatternFile(file) })
  }
  if (workspace.memory && workspace.memoryDir) {
    const memory = await memoryUpdate(workspace, memoryRefs)
    if (memory) {
      result.memory = { path: `${workspace.memoryDir}/MEMORY.md`, ...memory.summary }
      if (memory.text !== null) result.files.push({ path: 'memory:MEMORY.md', text: memory.text })
    }
  }
  if (!dryRun) await writeAll(workspace, result.files)
  return result
}

function unitText(entry: PatternEntry): string {
  return `${entry.title}. ${entry.observation}. ${entry.details}`
}

/** The skill for `crystal`: its name (never a user's own skill's), text and citations. */
async function skillFor(workspace: PatternWorkspace, crystal: Crystal) {
  const base = skillNameOf(crystal)
  for (let attempt = 1; ; attempt += 1) {
    const name = attempt === 1 ? base : `${base.slice(0, 60)}-${attempt}`
    const path = `.claude/skills/${name}/SKILL.md`
    const existing = await workspace.project.read(path)
    if (existing !== null && !isSomnusSkill(existing)) continue
    const earlier = existing === null ? [] : citationsIn(existing)
    const text = renderSkill(crystal, name, earlier)
    const description = /^description: (.*)$/m.exec(text)?.[1] ?? ''
    return {
      text,
      description: JSON.parse(description) as string,
      written: {
        name,
        path,
        domain: crystal.domain,
        entries: crystal.members.map((member) => member.id),
        citations: citationsIn(text),
      },
    }
  }
}

/** The pattern files without the consolidated entries (only files that change). */
async function withoutConsolidated(
  workspace: PatternWorkspace,
  pruned: Map<string, PatternFile>,
  consolidated: ReadonlySet<string>,
): Promise<Map<string, PatternFile>> {
  if (consolidated.size === 0) return pruned
  const changed = new Map(pruned)
  const all = await readPatternFiles(workspace)
  for (const [domain, original] of all) {
    const file = pruned.get(domain) ?? original
    const kept = file.entries.filter((entry) => !consolidated.has(entry.id))
    if (kept.length !== file.entries.length) changed.set(domain, { ...file, entries: kept })
  }
  return changed
}

/** MEMORY.md with lines for `refs`, without Somnus lines whose skill is gone; null text: unchanged. */
async function memoryUpdate(workspace: PatternWorkspace, refs: SkillReference[]) {
  const memory = workspace.memory
  if (!memory) return null
  const before = await memory.read('MEMORY.md')
  const gone = new Set<string>()
  for (const name of somnusSkillsIn(before ?? '')) {
    if (refs.some((ref) => ref.name === name)) continue
    const skill = await workspace.project.read(`.claude/skills/${name}/SKILL.md`)
    if (skill === null || !isSomnusSkill(skill)) gone.add(name)
  }
  const update = updateMemoryIndex(before, refs, gone)
  const summary = { added: update.added, removed: update.removed, skipped: update.skipped }
  return { summary, text: update.text === (before ?? '') ? null : update.text }
}

async function writeAll(workspace: PatternWorkspace, files: { path: string; text: string }[]) {
  for (const { path, text } of files) {
    const [place, ...rest] = path.split(':')
    const name = rest.join(':')
    if (place === 'patterns') await workspace.patterns.write(name, text)
    else if (place === 'project') await workspace.project.write(name, text)
    else if (place === 'memory' && workspace.memory) await workspace.memory.write(name, text)
  }
}
