/**
 * The snapshot's middle: the sleep ledger (debt, sessions, recent sleeps) and the project record
 * (changelog, latest release, features). Each builder renders all three forms.
 */
import type { ChangelogEntry, ReleaseEntry } from '../../../engine/core/core-files.ts'
import { clip } from '../../../engine/core/markdown-text.ts'
import { redactShown } from '../../../engine/core/redact-secrets.ts'
import type { SleepLevel } from '../../../engine/core/scoring/scoring-policy.ts'
import type { FeatureSummary } from '../features.ts'
import type { SessionRecord, SleepHistoryEntry, SleepState } from '../sleep-state.ts'
import { textComparator } from './compare-text.ts'
import { block, linesWithin, moreLine, plural } from './section-text.ts'
import type { ListOrProblem, SectionDraft } from './snapshot-types.ts'

/** Session lines kept by the summary form. */
const SUMMARY_SESSIONS = 3

/**
 * Debt and level, sessions since the last sleep, each session, the last three sleeps. The full
 * form lists sessions only while it stays within `limit` characters (see `linesWithin`).
 */
export function sleepStateSection(
  state: SleepState,
  level: SleepLevel,
  history: SleepHistoryEntry[],
  limit = Number.POSITIVE_INFINITY,
): SectionDraft {
  const draft = { name: 'Sleep State', importance: 8, head: false }
  const facts = [`- Debt: ${state.debt} (${level})`]
  if (state.sleep_started_at)
    facts.push(`- Consolidation in progress (started: ${state.sleep_started_at})`)
  if (state.last_sleep) {
    const about = state.last_sleep_summary ? `: ${clip(state.last_sleep_summary, 200)}` : ''
    facts.push(`- Last sleep: ${state.last_sleep}${about}`)
  }
  facts.push(`- Sessions since last sleep: ${state.sessions_since_last_sleep}`)
  const last = state.sessions[0]
  if (last?.stopped_at) facts.push(`- Last session ended: ${last.stopped_at}`)
  // Ledgers written before redaction existed may still hold a secret in a closing message.
  const lastMessage = last?.last_assistant_message
    ? redactShown(last.last_assistant_message, 1000)
    : null
  const sessionLines = (session: SessionRecord, preview: boolean) => {
    const score = session.score === null ? '(pending)' : `(+${session.score})`
    const counts = [
      session.change_count === null ? null : plural(session.change_count, 'change'),
      session.tool_count === null ? null : plural(session.tool_count, 'tool'),
    ].filter((part) => part !== null)
    const head = `  - ${session.stopped_at ?? 'active'} ${score}${counts.length > 0 ? ` ${counts.join(', ')}` : ''}`
    if (!preview || !session.last_assistant_message) return [head]
    return [head, `    ${clip(redactShown(session.last_assistant_message, 200), 200)}`]
  }
  const historyLine = (entry: SleepHistoryEntry) =>
    `  - ${entry.date}: ${clip(entry.summary, 160)} (debt ${entry.debt_before} → ${entry.debt_after}, ${plural(entry.sessions_processed, 'session')})`
  const full = [...facts]
  const summary = [...facts]
  if (lastMessage) {
    full.push(`- Last session summary: ${clip(lastMessage, 1000)}`)
    summary.push(`- Last session summary: ${clip(lastMessage, 200)}`)
  }
  if (state.sessions.length > 0) {
    const room = limit - full.reduce((sum, line) => sum + line.length + 1, 0)
    full.push(
      '- Entries since last sleep:',
      ...linesWithin(state.sessions, (session) => sessionLines(session, true), room),
    )
    const shown = state.sessions.slice(0, SUMMARY_SESSIONS)
    const hidden = state.sessions.length - shown.length
    summary.push(
      '- Entries since last sleep:',
      ...shown.flatMap((session) => sessionLines(session, false)),
    )
    if (hidden > 0) summary.push(`  ${moreLine(hidden, 'entries', 'run `somnus sleep status`')}`)
  }
  if (history.length > 0) {
    full.push('- Recent sleeps:', ...history.slice(0, 3).map(historyLine))
    summary.push('- Recent sleeps:', ...history.slice(0, 1).map(historyLine))
  }
  return {
    ...draft,
    full: block('Sleep State', full),
    summary: block('Sleep State', summary),
    line: `- Sleep State: debt ${state.debt} (${level}), ${plural(state.sessions_since_last_sleep, 'session')} since last sleep: run \`somnus sleep status\``,
  }
}

/** Changelog entries shown in full (seed 001: the last 3, docs/design/origins.md). */
const CHANGELOG_ENTRIES = 3

/** The latest changelog entries, newest first. */
export function changelogSection(changelog: ListOrProblem<ChangelogEntry>): SectionDraft {
  const draft = { name: 'Recent Changelog', importance: 6, head: false }
  if ('problem' in changelog) {
    const problem = `- ${changelog.problem}`
    return { ...draft, full: block('Recent Changelog', [problem]), summary: problem, line: problem }
  }
  const rows = changelog.rows
  if (rows.length === 0) return { ...draft, full: '', summary: '', line: '' }
  const render = (entry: ChangelogEntry) =>
    `- ${entry.date} [${entry.type}] ${clip(entry.message, 200)}`
  const where = '_agent_context/core/CHANGELOG.json'
  return {
    ...draft,
    full: block('Recent Changelog', rows.slice(0, CHANGELOG_ENTRIES).map(render)),
    summary: block('Recent Changelog', [
      ...rows.slice(0, 1).map(render),
      ...(rows.length > 1 ? [moreLine(rows.length - 1, 'entries', `read ${where}`)] : []),
    ]),
    line: `- Recent Changelog: ${plural(rows.length, 'entry', 'entries')} in ${where}`,
  }
}

/** The newest release. */
export function releaseSection(releases: ListOrProblem<ReleaseEntry>): SectionDraft {
  const draft = { name: 'Latest Release', importance: 5, head: false }
  if ('problem' in releases) {
    const problem = `- ${releases.problem}`
    return { ...draft, full: block('Latest Release', [problem]), summary: problem, line: problem }
  }
  const latest = releases.rows[0]
  if (!latest) return { ...draft, full: '', summary: '', line: '' }
  const head = `${latest.version} (${latest.date})${latest.breaking ? ' (BREAKING)' : ''}`
  return {
    ...draft,
    full: block('Latest Release', [`- ${head}: ${clip(latest.summary, 300)}`]),
    summary: block('Latest Release', [`- ${head}: ${clip(latest.summary, 100)}`]),
    line: `- Latest Release: ${head}, see _agent_context/core/RELEASES.json`,
  }
}

/** Features summarised before "… N more". */
const SUMMARY_FEATURES = 8

/** Feature PRDs, most recently updated first, with the first line of their `## Why`. */
export function featuresSection(
  features: FeatureSummary[],
  limit = Number.POSITIVE_INFINITY,
): SectionDraft {
  const draft = { name: 'Features', importance: 4, head: false }
  if (features.length === 0) return { ...draft, full: '', summary: '', line: '' }
  const compareDates = textComparator(features.map((feature) => feature.updated ?? ''))
  const compareSlugs = textComparator(features.map((feature) => feature.slug))
  const sorted = [...features].sort(
    (a, b) => compareDates(b.updated ?? '', a.updated ?? '') || compareSlugs(a.slug, b.slug),
  )
  const head = (feature: FeatureSummary) => {
    const title = feature.title !== feature.slug ? `: ${clip(feature.title, 100)}` : ''
    return `- **${feature.slug}** (${feature.status}${feature.updated ? `, updated ${feature.updated}` : ''})${title}`
  }
  const shown = sorted.slice(0, SUMMARY_FEATURES)
  const hidden = sorted.length - shown.length
  return {
    ...draft,
    full: block(
      'Features',
      linesWithin(
        sorted,
        (feature) => (feature.why ? [head(feature), `  Why: ${feature.why}`] : [head(feature)]),
        limit,
      ),
    ),
    summary: block('Features', [
      ...shown.map(head),
      ...(hidden > 0 ? [moreLine(hidden, 'features', 'run `somnus features list`')] : []),
    ]),
    line: `- Features: ${sorted.length} PRDs in _agent_context/core/features/: run \`somnus features list\``,
  }
}
