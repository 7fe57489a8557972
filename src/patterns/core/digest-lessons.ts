/**
 * The lessons of one session, from its digest (seed 002 item 4: the transcript is the source; the
 * session digest builder is what reads it, pairing errors with their causes and fixes, picking
 * the decisions and quoting the user). Each gotcha, decision, preference and repeated workflow
 * becomes an entry in one of the nine categories, stated as a developer would keep it: symptom,
 * cause and fix; choice and reason; the rule. What states none of these (a fix that was only a
 * rerun, a decision without a reason, a question, an accomplishment) is left out.
 */
import type { DigestItem, SessionDigest } from '../../engine/core/digest/session-digest.ts'
import { guessDomain } from '../../engine/core/extractive/patterns.ts'
import { clip } from '../../engine/core/markdown-text.ts'
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import { decisionPartsOf } from './decision-parts.ts'
import type { PatternCandidate } from './encode-plan.ts'
import { type GotchaParts, gotchaPartsOf } from './gotcha-parts.ts'
import { domainSlug, type PatternCategory, tagSlug } from './pattern-entry.ts'

/** A lesson before it gets its domain and session; `context` is told the domain. */
interface Lesson {
  category: PatternCategory
  title: string
  observation: string
  details: string
  context: (domain: string) => string
  /** Extra tags (the failing command's program). */
  tags: string[]
  /** The command or tool the lesson is about (`mix test`, `git push`), or ''. */
  tool?: string
  sources: string[]
}

/** Fixes that go around a problem rather than through it. */
const WORKAROUND =
  /\b(?:workaround|work around|worked around|by hand|manually|bypass\w*|--no-verify|nowarn\w*|silenc\w+)/i
/** A cause the agent had to dig for. */
const ROOT_CAUSE =
  /\b(?:root cause|turn(?:s|ed) out|was caused by|the (?:real )?(?:issue|problem|bug) (?:was|is))\b/i
/** Words that make the user's words a rule rather than a question or a remark. */
const RULE_WORDS =
  /\b(?:never|always|don'?t|do not|instead|prefer\w*|rather|should(?:n'?t)?|must|make sure|please|stop|avoid|only|fix|until|keep going|without (?:asking|stopping)|from now on|every time|each time)\b/i

/** The candidate entries of `digest`, each citing `sessionId` first, then its records. */
export function lessonsFromDigest(
  digest: SessionDigest,
  sessionId: string = digest.sessionId,
): PatternCandidate[] {
  const lessons = [
    ...digest.gotchas.flatMap(gotchaLessons),
    ...digest.decisions.flatMap(decisionLesson),
    ...digest.preferences.flatMap(preferenceLesson),
    ...(digest.workflow ?? []).flatMap(workflowLesson),
  ]
  // A lesson that names no technology belongs to the session's main one (its changed files').
  const sessionDomain = guessDomain('', digestText(digest))
  return lessons.map((lesson) => finish(lesson, sessionId, sessionDomain))
}

/** The digest's text that says what the session worked with: files changed, gotchas, decisions. */
function digestText(digest: SessionDigest): string {
  const items = [
    ...digest.changes.flatMap((area) => [area.area, ...area.items.map((item) => item.text)]),
    ...digest.gotchas.map((item) => item.text),
    ...digest.decisions.map((item) => item.text),
  ]
  return items.join('\n')
}

function gotchaLessons(item: DigestItem): Lesson[] {
  return gotchaPartsOf(item.text).map((parts) => {
    const where = parts.command === '' ? '' : `\`${parts.command}\``
    // A title names the error; a colon left from the error's own heading adds nothing.
    const named = parts.symptom.replace(/[\s:]+$/, '')
    const symptom = parts.command === '' && !parts.fromHook ? parts.symptom : `\`${parts.symptom}\``
    return {
      category: gotchaCategory(parts),
      title: where ? `${where} fails: ${clip(named, 90)}` : clip(named, 110),
      observation: where
        ? `${where} fails with ${symptom}`
        : parts.fromHook
          ? `After an edit, a hook reports ${symptom}`
          : symptom,
      details: `${parts.cause ? `Cause: ${sentence(parts.cause)} ` : ''}Fix: ${sentence(parts.fix)}`,
      context: (domain) =>
        parts.command || parts.fixKind === 'command'
          ? `Running \`${parts.command || commandRun(parts.fix)}\` in this project.`
          : parts.fromHook
            ? `Editing ${namedIn(parts.symptom) || namedIn(parts.fix) || 'code'} in this project (a hook checks each edit).`
            : workingOn([parts.symptom, parts.cause, parts.fix], domain),
      tags: parts.command ? [parts.command.split(' ')[0] ?? ''] : [],
      tool: parts.command || (parts.fixKind === 'command' ? commandRun(parts.fix) : ''),
      sources: item.sources,
    }
  })
}

function gotchaCategory(parts: GotchaParts): PatternCategory {
  if (WORKAROUND.test(`${parts.cause} ${parts.fix}`)) return 'workaround'
  if (ROOT_CAUSE.test(parts.cause)) return 'debugging-insight'
  return parts.fixKind === 'command' ? 'tool-failure' : 'gotcha'
}

function decisionLesson(item: DigestItem): Lesson[] {
  const parts = decisionPartsOf(item.text)
  if (parts === null) return []
  const why = [
    parts.reason ? `Why: ${sentence(parts.reason)}` : '',
    parts.over ? `Chosen over ${parts.over.replace(/[.]$/, '')}.` : '',
  ]
  return [
    {
      category: 'architectural-decision',
      title: clip(parts.choice, 100),
      // The decision as the session stated it: the choice alone may not say what it is about.
      observation: sentence(clip(item.text.replace(/\s+/g, ' ').trim(), 300)),
      details: why.filter(Boolean).join(' '),
      context: (domain) => {
        const named = namedIn(parts.choice) || namedIn(item.text)
        const where = named
          ? `around ${named} in this project`
          : domain === 'general'
            ? 'in this project'
            : `in this project (${domain})`
        return `Design choices ${where}; revisit when the reason no longer holds.`
      },
      tags: [],
      sources: item.sources,
    },
  ]
}

function preferenceLesson(item: DigestItem): Lesson[] {
  const text = item.text.trim()
  const context = () => 'Any work for this user in this project.'
  const brief = /^Brief prompts \((.+)\):\s*(.+?)\.?$/.exec(text)
  if (brief?.[1] && brief[2]) {
    return [
      {
        category: 'user-preference',
        title: `Brief prompts: ${clip(brief[2], 90)}`,
        observation: `The user gives brief prompts that name the work (${brief[1]}).`,
        details: `Rule: ${sentence(brief[2])}`,
        context,
        tags: [],
        sources: item.sources,
      },
    ]
  }
  // Answers to the agent's questions: `The user asked "Q": "A"; asked "Q2": "A2"`, one rule each.
  if (text.startsWith('The user asked "')) {
    const pairs = [...text.matchAll(/asked "(.+?)": "(.*?)"(?=; asked "|$)/g)]
    return pairs.flatMap(([, asked = '', said = '']) => {
      if (said.trim().length < 2) return []
      const question = clip(asked, 160)
      return [
        {
          category: 'user-preference' as const,
          title: `${clip(said, 70)} (asked: ${clip(asked, 50)})`,
          observation: `Asked "${question}", the user answered "${clip(said, 200)}".`,
          details: `Rule: asked "${clip(asked, 120)}", the answer is "${clip(said, 200)}"; act on it without asking again.`,
          context: () => `When the same question comes up in this project: ${question}`,
          tags: [],
          sources: item.sources,
        },
      ]
    })
  }
  const rejected = /^The user rejected (.+?): "(.+)"$/.exec(text)
  if (rejected?.[1] && rejected[2]) {
    return [
      {
        category: 'user-preference',
        title: `Not wanted: ${clip(rejected[1], 90)}`,
        observation: `The user rejected ${clip(rejected[1], 160)}.`,
        details: `Rule: don't ${clip(rejected[1], 120)}; in the user's words: "${clip(rejected[2], 240)}"`,
        context,
        tags: [],
        sources: item.sources,
      },
    ]
  }
  const said = /^(?:In the user's words: )?"(.+)"$/.exec(text)?.[1]
  if (
    !said ||
    !RULE_WORDS.test(said) ||
    (said.endsWith('?') && !/\b(?:never|always|don'?t|do not)\b/i.test(said))
  )
    return []
  return [
    {
      category: 'user-preference',
      title: clip(said, 100),
      observation: `The user said: "${clip(said, 280)}"`,
      details: `Rule: ${sentence(said)}`,
      context,
      tags: [],
      sources: item.sources,
    },
  ]
}

function workflowLesson(item: DigestItem): Lesson[] {
  const match = /^Per piece of work \((\d+) times\): (.+?)(?:; at the end: (.+?))?\.?$/.exec(
    item.text.trim(),
  )
  if (!match?.[1] || !match[2]) return []
  const steps = match[2]
  const last = match[3] ? `; at the end, run ${match[3]}` : ''
  return [
    {
      category: 'convention',
      title: `Per task: ${clip(steps, 100)}`,
      observation: `Each piece of work ran the same steps, in this order (${match[1]} times in the session).`,
      details: `Rule: For each task, run ${steps.replace(/\.$/, '')}, in this order${last}.`,
      context: () => 'Finishing each task in this project, up to its commit and push.',
      tags: ['workflow'],
      sources: item.sources,
    },
  ]
}

/** Code spans that are commands, not things in the project. */
const COMMAND_SPAN =
  /^(?:git|mix|npm|npx|node|yarn|pnpm|bundle|rake|pip|python|cargo|go|make|bd|gh|cd)\s/

/**
 * The things `text` names (at most two): code spans that are not commands or error text, else
 * identifiers (`TranscriptRenderer.render/2`, `load_session_data/1`, `@max_lines`), or ''.
 */
function namedIn(text: string): string {
  const spans = [...text.matchAll(/`([^`\s][^`]{1,48})`/g)]
    .map((match) => match[1] ?? '')
    .filter(
      (name) =>
        name.split(' ').length <= 4 && !COMMAND_SPAN.test(name) && !/[:!]\s|^error\b/i.test(name),
    )
  const identifiers =
    text
      .replace(/`[^`]*`/g, ' ')
      .match(/@\w+|\b(?:[A-Z][a-z]+[A-Z]\w*|\w+_\w+|[A-Z]\w*\.\w+)(?:\.\w+)*(?:\/\d)?/g) ?? []
  const names = spans.length > 0 ? spans : identifiers
  return [...new Set(names)]
    .slice(0, 2)
    .map((name) => `\`${name}\``)
    .join(' and ')
}

/** The command a fix runs, without the `cd dir &&` that sets it up: `cd tools && node b.js` → `node b.js`. */
function commandRun(fix: string): string {
  const command = /`([^`]+)`/.exec(fix)?.[1] ?? fix
  return (command.split(/\s*(?:&&|;)\s*/).at(-1) ?? command).trim()
}

/** Where a lesson applies: the first of `texts` that names something, else the domain's code. */
function workingOn(texts: string[], domain: string): string {
  const named = texts.map(namedIn).find((names) => names !== '')
  if (named) return `Working on ${named} in this project.`
  return domain === 'general' ? 'Working in this project.' : `Working in this project (${domain}).`
}

/** `text` as a sentence: trimmed, capitalised, ending with a stop. */
function sentence(text: string): string {
  const trimmed = text.trim()
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1)
  return /[.!?…)"']$/.test(capital) ? capital : `${capital}.`
}

function finish(lesson: Lesson, session: string, sessionDomain: string): PatternCandidate {
  const clean = (text: string) => redactSecrets(text.replace(/\s+/g, ' ').trim())
  // The domain is the tool's the lesson is about (`mix test` is Elixir's, `git push` git's), else
  // the technology its words name (an SQLite migration is SQLite's, not PostgreSQL's).
  const byTool = lesson.tool ? guessDomain(lesson.tool) : 'general'
  const guessed =
    byTool !== 'general'
      ? byTool
      : guessDomain(
          `${lesson.title} ${lesson.observation} ${lesson.details}`,
          lesson.tags.join(' '),
        )
  const preference = lesson.category === 'user-preference'
  const domain = domainSlug(guessed === 'general' && !preference ? sessionDomain : guessed)
  const tags = [lesson.category, ...(domain === 'general' ? [] : [domain]), ...lesson.tags]
  return {
    domain,
    category: lesson.category,
    title: clean(lesson.title),
    observation: clean(lesson.observation),
    details: clean(lesson.details),
    context: clean(lesson.context(domain)),
    tags: [...new Set(tags.map(tagSlug).filter(Boolean))],
    sources: [...new Set([session, ...lesson.sources].filter(Boolean))],
  }
}
