/**
 * `patterns consolidate` (seed 002 items 5-8, 10, docs/design/origins.md): prune old entries,
 * count, bail out early when no domain can reach the threshold, then group similar entries with the
 * model and crystallize groups seen in enough sessions: domain knowledge into
 * `.claude/skills/<domain>-<name>/SKILL.md`, rules for every task into CLAUDE.md's Somnus section,
 * each citing its observations. Crystallized entries leave the pattern files (the skill keeps their
 * provenance); MEMORY.md gets one reference line per skill, and Somnus lines of skills that are
 * gone are removed.
 */

import type { LanguageModel } from '../../engine/ports/language-model.ts'
import { claudeMdRuleOf, withClaudeMdRules } from '../core/claude-md-rules.ts'
import { type Crystal, censusOfPatterns, crystalsOf } from '../core/consolidate-plan.ts'
import { type SkillReference, somnusSkillsIn, updateMemoryIndex } from '../core/memory-index.ts'
import { type PatternEntry, type PatternFile, renderPatternFile } from '../core/pattern-entry.ts'
import { citationsIn, isSomnusSkill, renderSkill, skillNameOf } from '../core/skill-document.ts'
import { freeSkillName, type KnownSkill, skillTellingSameLesson } from '../core/skill-match.ts'
import { recordEntryIds } from './entry-id-registry.ts'
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
  const skills = await planSkills(workspace, crystals)
  for (const skill of skills) {
    result.skills.push(skill.written)
    result.files.push({ path: `project:${skill.written.path}`, text: skill.text })
  }
  const rules = crystals.filter((crystal) => crystal.placement === 'claude-md').map(claudeMdRuleOf)
  const claudeMd = rules.length > 0 ? await workspace.project.read('CLAUDE.md') : null
  const claudeMdText = rules.length > 0 ? withClaudeMdRules(claudeMd, rules) : null
  result.claudeMdRules = rules.map((rule) => rule.text)
  if (claudeMdText !== null) result.files.push({ path: 'project:CLAUDE.md', text: claudeMdText })
  if (dryRun) {
    const consolidated = new Set(crystals.flatMap((crystal) => crystal.members.map((m) => m.id)))
    for (const [domain, file] of await withoutConsolidated(workspace, patternFiles, consolidated))
      result.files.push({ path: `patterns:${domain}.md`, text: renderPatternFile(file) })
    const memory = await memoryUpdate(workspace, skills.map(referenceOf))
    if (memory && workspace.memoryDir) {
      result.memory = { path: `${workspace.memoryDir}/MEMORY.md`, ...memory.summary }
      if (memory.text !== null) result.files.push({ path: 'memory:MEMORY.md', text: memory.text })
    }
    return result
  }
  // Skills and rules first, each read back: an entry leaves the pattern files only once the file
  // that now tells its lesson is on disk and cites it (a failed or clobbered write loses nothing).
  const kept = new Set<string>()
  const settled: typeof skills = []
  for (const skill of skills) {
    await workspace.project.write(skill.written.path, skill.text)
    const back = (await workspace.project.read(skill.written.path)) ?? ''
    const cited = skill.written.entries.filter((id) => back.includes(`\`${id}\``))
    for (const id of cited) kept.add(id)
    if (cited.length > 0) settled.push(skill)
  }
  if (claudeMdText !== null) {
    await workspace.project.write('CLAUDE.md', claudeMdText)
    const back = (await workspace.project.read('CLAUDE.md')) ?? ''
    for (const crystal of crystals.filter((each) => each.placement === 'claude-md'))
      for (const member of crystal.members) if (back.includes(member.id)) kept.add(member.id)
  }
  // Recorded before the entries go: killed in between, the next run finds them crystallized
  // already and only takes them out (their citations are in the skill once).
  await recordEntryIds(workspace, { crystallized: [...kept] })
  for (const [domain, file] of await withoutConsolidated(workspace, patternFiles, kept)) {
    const text = renderPatternFile(file)
    result.files.push({ path: `patterns:${domain}.md`, text })
    await workspace.patterns.write(`${domain}.md`, text)
  }
  if (workspace.memory && workspace.memoryDir) {
    const memory = await memoryUpdate(workspace, settled.map(referenceOf))
    if (memory) {
      result.memory = { path: `${workspace.memoryDir}/MEMORY.md`, ...memory.summary }
      if (memory.text !== null) {
        result.files.push({ path: 'memory:MEMORY.md', text: memory.text })
        await workspace.memory.write('MEMORY.md', memory.text)
      }
    }
  }
  return result
}

function unitText(entry: PatternEntry): string {
  return `${entry.title}. ${entry.observation}. ${entry.details}`
}

/** A skill this consolidation writes: its text and what the result reports of it. */
interface PlannedSkill {
  text: string
  description: string
  written: WrittenSkill
}

function referenceOf(skill: PlannedSkill): SkillReference {
  return { name: skill.written.name, path: skill.written.path, description: skill.description }
}

/**
 * The skills of `crystals` placed as skills: a lesson already crystallized goes into its Somnus
 * skill with its earlier citations kept; any other gets a name no skill has (a user's, another
 * lesson's, one written in this same run).
 */
async function planSkills(
  workspace: PatternWorkspace,
  crystals: Crystal[],
): Promise<PlannedSkill[]> {
  const known = await knownSkills(workspace)
  const taken = new Set(known.map((skill) => skill.name))
  const targets = new Map<string, { crystal: Crystal; earlier: string[] }>()
  for (const crystal of crystals.filter((each) => each.placement === 'skill')) {
    const same = skillTellingSameLesson(crystal, known)
    if (same) {
      const already = targets.get(same.name)
      if (already) already.crystal.members.push(...crystal.members)
      else targets.set(same.name, { crystal, earlier: citationsIn(same.text) })
      continue
    }
    const name = freeSkillName(skillNameOf(crystal), taken)
    taken.add(name)
    targets.set(name, { crystal, earlier: [] })
  }
  return [...targets].map(([name, { crystal, earlier }]) => {
    const path = `.claude/skills/${name}/SKILL.md`
    const text = renderSkill(crystal, name, earlier)
    const description = /^description: (.*)$/m.exec(text)?.[1] ?? '""'
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
  })
}

/** The project's skills (`.claude/skills/<name>/SKILL.md`), each with whether Somnus wrote it. */
async function knownSkills(workspace: PatternWorkspace): Promise<KnownSkill[]> {
  const skills: KnownSkill[] = []
  for (const name of await workspace.project.folders('.claude/skills')) {
    const text = await workspace.project.read(`.claude/skills/${name}/SKILL.md`)
    if (text !== null) skills.push({ name, text, somnus: isSomnusSkill(text) })
  }
  return skills
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
