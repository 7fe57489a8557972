/**
 * Writes a consolidation whose result is known (`state.pending.commit`), as a redo journal: each
 * step checks whether it already happened (the dream marker in observations.md, the dream id in
 * dreams.jsonl, the deep-sleep and diary markers), so a commit replayed after kill -9 appends
 * nothing twice, and the state is cleared only once everything is written.
 */
import { planDeepSleep } from '../core/deep-sleep.ts'
import type { MindState } from '../core/mind-state.ts'
import { hasDreamMarker } from '../core/observations-file.ts'
import type { MindFiles } from '../ports/mind-store.ts'
import type { MindDeps } from './mind-deps.ts'
import { writeState } from './mind-deps.ts'
import { dreamEntries } from './mind-records.ts'

/** Finishes the pending commit of `state` and returns the state after it. */
export async function commitConsolidation(
  deps: MindDeps,
  files: MindFiles,
  state: MindState,
): Promise<MindState> {
  const pending = state.pending
  const commit = pending?.commit
  if (!pending || !commit) return state
  const { dream } = commit
  const observations = (await files.readDocument('observations')) ?? ''
  if (!hasDreamMarker(observations, dream.id)) {
    await files.appendDocument('observations', commit.observationsBlock)
  }
  const dreams = dreamEntries(await files.readLog('dreams'))
  if (!dreams.some((entry) => entry.id === dream.id)) {
    await files.appendLog('dreams', [JSON.stringify(dream)])
  }
  if (dream.deep) {
    const current = (await files.readDocument('observations')) ?? ''
    const before = dreams.filter((entry) => entry.id !== dream.id)
    const plan = planDeepSleep(current, before, dream, new Date(dream.t), deps.config)
    const archive = (await files.readDocument('archive')) ?? ''
    if (plan.archiveBlock !== '' && !archive.includes(`<!-- deep sleep ${dream.id} -->`)) {
      await files.appendDocument(
        'archive',
        archive === '' ? `# Observations archive\n\n${plan.archiveBlock}` : plan.archiveBlock,
      )
    }
    // The diary before the pruned file: a replay after the prune would plan nothing to prune
    // and tell "Pruned 0"; written first, the diary holds the counts of the prune it describes.
    const diary = (await files.readDocument('diary')) ?? ''
    if (!diary.includes(`<!-- diary ${dream.id} -->`)) {
      await files.appendDocument(
        'diary',
        diary === '' ? `# Diary\n\n${plan.diaryEntry}` : plan.diaryEntry,
      )
    }
    if (plan.observations !== current) await files.writeDocument('observations', plan.observations)
    await files.writeDocument('priorities', plan.prioritiesText)
  }
  const actions = Math.max(0, state.actionsSinceDream - pending.actions)
  const next: MindState = {
    ...state,
    actionsSinceDream: actions,
    messagesSinceDream: Math.max(0, state.messagesSinceDream - pending.messages),
    warned: state.warned && actions >= deps.config.fatigueWarning,
    dreamCount: state.dreamCount + 1,
    lastDreamAt: dream.t,
    consolidatedLines: Math.max(state.consolidatedLines, pending.throughLine),
    sleeping: commit.sleep,
    pending: null,
  }
  await writeState(files, next)
  return next
}
