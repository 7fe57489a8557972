/**
 * The LanguageModel port on top of any chat transport: each skill is a system prompt, the units
 * with their ids, and a JSON reply checked by the port's schema and by the rule that every cited id
 * exists. A bad reply is retried once with the problem named; a second bad reply is an error.
 */
import * as z from 'zod'
import { SomnusError } from '../../core/errors.ts'
import { countTokens } from '../../core/tokens.ts'
import type { ChatTransport } from '../../ports/chat-transport.ts'
import {
  GroupSchema,
  type LanguageModel,
  ObservationSchema,
  PatternSchema,
  ReflectionSchema,
  SummarySchema,
  type Unit,
  type Usage,
} from '../../ports/language-model.ts'
import { throwIfAborted, untilAborted } from './aborted-error.ts'
import {
  citedUnits,
  DIGEST_SYSTEM,
  DigestReplySchema,
  digestFromReply,
  digestUnits,
} from './digest-prompt.ts'
import { checkedBudget, checkedUnits } from './model-input.ts'
import {
  correctionNote,
  groupSystem,
  OBSERVATIONS_SYSTEM,
  PATTERNS_SYSTEM,
  REFLECT_SYSTEM,
  shorterNote,
  summarizeSystem,
  unitsPrompt,
} from './prompts.ts'
import { cutToBudget, extractJson } from './reply-text.ts'
import { transportFailure } from './transport-failure.ts'

/** What a prompted model needs. */
export interface PromptedLanguageModelOptions {
  /** The name results carry, e.g. `anthropic:claude-sonnet-4-5`. */
  name: string
  transport: ChatTransport
  /** Reply tokens allowed for list-shaped tasks; summaries get at least their budget plus room. @default 4096 */
  maxOutputTokens?: number
}

/** One task: how to ask, and how to check the answer. */
interface Task<T> {
  label: string
  system: string
  prompt: string
  maxTokens: number
  read: (json: unknown) => Checked<T>
  signal: AbortSignal | undefined
}

type Checked<T> = { ok: true; value: T } | { ok: false; problem: string }

const DEFAULT_MAX_OUTPUT_TOKENS = 4096
const ZERO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 }
/** A reply's problem is echoed to the model and the user; a whole zod report would swamp both. */
const MAX_PROBLEM_CHARS = 1_000

/**
 * A LanguageModel that asks `transport` for JSON and validates every answer: the seam through which
 * any chat model (a provider SDK, a local model, an agent's own client) becomes a Somnus model.
 */
export function createPromptedLanguageModel(options: PromptedLanguageModelOptions): LanguageModel {
  const { name, transport } = options
  const maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS

  async function ask<T>(task: Task<T>): Promise<{ value: T; usage: Usage }> {
    let usage = ZERO_USAGE
    let prompt = task.prompt
    let problem = ''
    for (let attempt = 1; attempt <= 2; attempt++) {
      const { system, maxTokens, signal } = task
      const response = await untilAborted(
        transport.generate({ system, prompt, maxTokens, signal }),
        signal,
        name,
      ).catch((error: unknown) => {
        throw transportFailure(name, error, signal)
      })
      usage = addUsage(usage, response.usage)
      const json = extractJson(response.text)
      const checked: Checked<T> = json.ok
        ? task.read(json.value)
        : { ok: false, problem: 'the reply holds no parseable JSON object.' }
      if (checked.ok) return { value: checked.value, usage }
      problem = checked.problem.slice(0, MAX_PROBLEM_CHARS)
      if (response.truncated) {
        problem += ` The reply hit the ${task.maxTokens}-token limit and was cut off: be more concise.`
      }
      prompt = task.prompt + correctionNote(problem)
    }
    throw new SomnusError(
      'MODEL_OUTPUT_INVALID',
      `${name}: the model's reply to "${task.label}" was invalid twice; last problem: ${problem}`,
      { details: { usage } },
    )
  }

  /** The checked units; a bad request or an aborted signal fails before anything is sent. */
  function startCall(units: Unit[], signal: AbortSignal | undefined): Unit[] {
    const checked = checkedUnits(units)
    throwIfAborted(signal, name)
    return checked
  }

  return {
    name,

    async summarize({ units: given, budgetTokens: requested, signal }) {
      const budgetTokens = checkedBudget(requested)
      const units = startCall(given, signal)
      if (units.length === 0 || budgetTokens <= 0) {
        return { value: { text: '', sources: [] }, model: name, usage: ZERO_USAGE }
      }
      const task: Task<z.infer<typeof SummarySchema>> = {
        label: 'summarize',
        system: summarizeSystem(budgetTokens),
        prompt: unitsPrompt(`Summarize these units in at most ${budgetTokens} tokens.`, units),
        // Room for the JSON wrapper and the ids; the budget itself is enforced below, not here.
        maxTokens: Math.max(maxOutputTokens, budgetTokens + 12 * units.length + 256),
        read: (json) =>
          checkSources(SummarySchema.safeParse(json), units, (summary) => summary.sources),
        signal,
      }
      let { value, usage } = await ask(task)
      const firstTokens = countTokens(value.text)
      if (firstTokens > budgetTokens) {
        try {
          const shorter = await ask({
            ...task,
            prompt: task.prompt + shorterNote(firstTokens, budgetTokens),
          })
          usage = addUsage(usage, shorter.usage)
          if (countTokens(shorter.value.text) < firstTokens) value = shorter.value
        } catch (error) {
          // A broken second try still leaves a valid first summary to cut; only bad output is forgiven.
          if (!(error instanceof SomnusError) || error.code !== 'MODEL_OUTPUT_INVALID') throw error
          usage = addUsage(usage, (error.details?.usage as Usage | undefined) ?? ZERO_USAGE)
        }
      }
      // Still over after asking twice: cut at the last whole sentence within the budget, because
      // callers rely on "never exceeds the budget" (the port's promise, shared with extractive).
      const text = cutToBudget(value.text, budgetTokens)
      return { value: { text, sources: value.sources }, model: name, usage }
    },

    async extractObservations({ units: given, signal }) {
      const units = startCall(given, signal)
      if (units.length === 0) return { value: [], model: name, usage: ZERO_USAGE }
      const { value, usage } = await ask({
        label: 'extract observations',
        system: OBSERVATIONS_SYSTEM,
        prompt: unitsPrompt('Distil prioritized observations from these units.', units),
        maxTokens: maxOutputTokens,
        signal,
        read: (json) =>
          checkSources(listOf('observations', ObservationSchema).safeParse(json), units, (list) =>
            list.flatMap((item) => item.sources),
          ),
      })
      // `time` is documented as HH:MM; anything else a model wrote there is dropped, not trusted.
      const observations = value.map(({ time, ...rest }) =>
        time !== undefined && /^\d{2}:\d{2}$/.test(time) ? { ...rest, time } : rest,
      )
      return { value: observations, model: name, usage }
    },

    async extractPatterns({ units: given, signal }) {
      const units = startCall(given, signal)
      if (units.length === 0) return { value: [], model: name, usage: ZERO_USAGE }
      const { value, usage } = await ask({
        label: 'extract patterns',
        system: PATTERNS_SYSTEM,
        prompt: unitsPrompt('Extract the reusable patterns in these units.', units),
        maxTokens: maxOutputTokens,
        signal,
        read: (json) =>
          checkSources(listOf('patterns', PatternSchema).safeParse(json), units, (list) =>
            list.flatMap((item) => item.sources),
          ),
      })
      // The domain becomes a file name (`patterns/{domain}.md`): never let a reply choose a path.
      const patterns = value.map((pattern) => ({ ...pattern, domain: domainSlug(pattern.domain) }))
      return { value: patterns, model: name, usage }
    },

    async groupSimilar({ units: given, threshold, signal }) {
      const units = startCall(given, signal)
      if (units.length < 2) return { value: [], model: name, usage: ZERO_USAGE }
      const { value, usage } = await ask({
        label: 'group similar',
        system: groupSystem(threshold),
        prompt: unitsPrompt('Group the units that repeat the same idea.', units),
        maxTokens: maxOutputTokens,
        signal,
        read: (json) =>
          checkSources(listOf('groups', GroupSchema).safeParse(json), units, (list) =>
            list.flatMap((group) => group.members),
          ),
      })
      // The port promises disjoint groups without singletons; enforce it rather than trust it.
      const seen = new Set<string>()
      const groups = value.flatMap((group) => {
        const members = group.members.filter((id) => !seen.has(id) && seen.add(id))
        return members.length >= 2 ? [{ label: group.label, members }] : []
      })
      return { value: groups, model: name, usage }
    },

    async reflect({ units: given, signal }) {
      const units = startCall(given, signal)
      if (units.length === 0) {
        return {
          value: { reflection: '', priority: '', sources: [] },
          model: name,
          usage: ZERO_USAGE,
        }
      }
      const { value, usage } = await ask({
        label: 'reflect',
        system: REFLECT_SYSTEM,
        prompt: unitsPrompt('Reflect on these recent observations.', units),
        maxTokens: maxOutputTokens,
        signal,
        read: (json) =>
          checkSources(ReflectionSchema.safeParse(json), units, (item) => item.sources),
      })
      return { value, model: name, usage }
    },

    async digestSession({ draft, signal }) {
      const { units, sourcesOf } = digestUnits(draft)
      startCall(units, signal)
      if (units.length === 0) return { value: draft, model: name, usage: ZERO_USAGE }
      const { value, usage } = await ask({
        label: 'digest session',
        system: DIGEST_SYSTEM,
        prompt: unitsPrompt(`Write the session digest of session ${draft.sessionId}.`, units),
        maxTokens: maxOutputTokens,
        signal,
        read: (json) => checkSources(DigestReplySchema.safeParse(json), units, citedUnits),
      })
      return { value: digestFromReply(draft, value, sourcesOf), model: name, usage }
    },
  }
}

/**
 * `{ "<key>": [items] }`, the shape the prompts ask for; a bare array is accepted too, since
 * models sometimes drop the wrapper and the items are what matter.
 */
function listOf<T extends z.ZodType>(key: string, item: T) {
  return z
    .preprocess(
      (value) => (Array.isArray(value) ? { [key]: value } : value),
      z.object({ [key]: z.array(item) }),
    )
    .transform((value) => value[key] as z.infer<T>[])
}

/** The schema's verdict, plus the rule that every cited id is one of the input units. */
function checkSources<T>(
  result: { success: true; data: T } | { success: false; error: z.ZodError },
  units: Unit[],
  cited: (value: T) => string[],
): Checked<T> {
  if (!result.success) {
    return {
      ok: false,
      problem: `the JSON does not match the shape: ${oneLine(z.prettifyError(result.error))}`,
    }
  }
  const known = new Set(units.map((unit) => unit.id))
  const unknown = [...new Set(cited(result.data).filter((id) => !known.has(id)))]
  if (unknown.length > 0) {
    return {
      ok: false,
      problem: `it cites unit ids that are not in the input: ${unknown.slice(0, 10).join(', ')}. Cite only the "id" values of the given units.`,
    }
  }
  return { ok: true, value: result.data }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim()
}

function domainSlug(domain: string): string {
  const slug = domain
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return slug === '' ? 'general' : slug
}

function addUsage(left: Usage, right: Usage): Usage {
  return {
    input_tokens: left.input_tokens + right.input_tokens,
    output_tokens: left.output_tokens + right.output_tokens,
  }
}
