/**
 * Fits the snapshot into its character budget by demotion, never by cutting text: sections give
 * way from the least important upward, full → summary → one line → omitted, and soul, user and
 * memory only after everything else (research/seed-systems.md 1.10). Then any slack is handed
 * back, most important section first.
 */
import type { SectionDraft, SectionForm } from './snapshot-types.ts'

/** Characters between two sections (one blank line). */
export const SECTION_SEPARATOR = '\n\n'

const FORM_ORDER: readonly SectionForm[] = ['full', 'summary', 'line', 'omitted']

const SMALLER: Record<Exclude<SectionForm, 'omitted'>, SectionForm> = {
  full: 'summary',
  summary: 'line',
  line: 'omitted',
}

/** The text of `draft` in `form` ('' when omitted). */
export function formText(draft: SectionDraft, form: SectionForm): string {
  return form === 'omitted' ? '' : draft[form]
}

/** Length of the joined text for the chosen forms, `fixedChars` (the header) included. */
function totalChars(drafts: SectionDraft[], forms: SectionForm[], fixedChars: number): number {
  let total = fixedChars
  let parts = fixedChars > 0 ? 1 : 0
  drafts.forEach((draft, index) => {
    const length = formText(draft, forms[index] ?? 'omitted').length
    if (length === 0) return
    total += length
    parts += 1
  })
  return total + Math.max(0, parts - 1) * SECTION_SEPARATOR.length
}

/**
 * Picks a form per draft so that the header plus the sections fit in `budget`. Returns the forms
 * in the order of `drafts`. Empty forms count as omitted.
 */
export function fitToBudget(
  drafts: SectionDraft[],
  budget: number,
  fixedChars: number,
): SectionForm[] {
  const forms: SectionForm[] = drafts.map((draft) => (draft.full === '' ? 'omitted' : 'full'))
  const fits = () => totalChars(drafts, forms, fixedChars) <= budget
  if (fits()) return forms
  const byImportance = drafts
    .map((_, index) => index)
    .sort((a, b) => importance(drafts, a) - importance(drafts, b))
  const tail = byImportance.filter((index) => !drafts[index]?.head)
  const head = byImportance.filter((index) => drafts[index]?.head)
  const schedule: [number[], SectionForm][] = [
    [tail, 'summary'],
    [tail, 'line'],
    [tail, 'omitted'],
    [head, 'summary'],
    [head, 'line'],
    [head, 'omitted'],
  ]
  for (const [group, target] of schedule) {
    for (const index of group) {
      if (fits()) break
      demoteTo(drafts, forms, index, target)
    }
  }
  giveBackSlack(drafts, forms, byImportance.reverse(), () => fits())
  return forms
}

function importance(drafts: SectionDraft[], index: number): number {
  return drafts[index]?.importance ?? 0
}

/** Moves section `index` down to `target` (no-op when it is already there or below). */
function demoteTo(
  drafts: SectionDraft[],
  forms: SectionForm[],
  index: number,
  target: SectionForm,
): void {
  const draft = drafts[index]
  if (!draft) return
  let form = forms[index] ?? 'omitted'
  while (form !== 'omitted' && FORM_ORDER.indexOf(form) < FORM_ORDER.indexOf(target)) {
    form = SMALLER[form]
  }
  forms[index] = formText(draft, form) === '' ? 'omitted' : form
}

/** Demotion steps are coarse; promote sections again, most important first, while they fit. */
function giveBackSlack(
  drafts: SectionDraft[],
  forms: SectionForm[],
  mostImportantFirst: number[],
  fits: () => boolean,
): void {
  for (const index of mostImportantFirst) {
    const draft = drafts[index]
    const current = forms[index] ?? 'omitted'
    if (!draft) continue
    for (const candidate of FORM_ORDER.slice(0, FORM_ORDER.indexOf(current))) {
      if (formText(draft, candidate) === '') continue
      forms[index] = candidate
      if (fits()) break
      forms[index] = current
    }
  }
}
