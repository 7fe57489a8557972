/**
 * The offline default model: every consolidation skill done by the deterministic extractive
 * functions of `engine/core/extractive`, no network, no weights, no API key. Its output passes the same
 * schema check as an LLM's, so callers can't tell the two apart by shape.
 */
import type * as z from 'zod'
import { SomnusError } from '../../core/errors.ts'
import { DEFAULT_GROUP_THRESHOLD, groupSimilar } from '../../core/extractive/grouping.ts'
import { extractObservations } from '../../core/extractive/observations.ts'
import { extractPatterns } from '../../core/extractive/patterns.ts'
import { reflect } from '../../core/extractive/reflection.ts'
import { summarizeLevels, summarizeUnits } from '../../core/extractive/summarize.ts'
import type { WordVectorsFile } from '../../core/extractive/word-vectors.ts'
import type { CpuWork } from '../../ports/cpu-work.ts'
import {
  GroupSchema,
  type LanguageModel,
  MeasuredSummarySchema,
  type ModelCall,
  ObservationSchema,
  PatternSchema,
  ReflectionSchema,
  SummarySchema,
  type Unit,
} from '../../ports/language-model.ts'
import { throwIfAborted } from './aborted-error.ts'
import { checkedUnits as checked, checkedBudget } from './model-input.ts'

/** The model's name in config, `--model` and every `model` field it stamps. */
export const EXTRACTIVE_MODEL_NAME = 'extractive'

const NO_USAGE = { input_tokens: 0, output_tokens: 0 }

/** How to run the extractive model. */
export interface ExtractiveModelOptions {
  /**
   * Worker threads for summaries and grouping (default 1: the calling thread). With more, those
   * skills run on a pool of their own and the model asks callers for that many calls at once.
   */
  threads?: number | undefined
  /**
   * A pool to run summaries and grouping on (in lane MODEL_LANE), shared with other work, and
   * its thread count; `threads` is then ignored.
   */
  pool?: { work: CpuWork; threads: number } | undefined
  /**
   * Word vectors for `groupSimilar`, loaded on its first call: grouping then blends the meaning of
   * the words (engine/core/extractive/word-vectors.ts) with their stems. The service's identity
   * consolidation passes them; without them grouping is by stems alone.
   */
  wordVectors?: (() => Promise<WordVectorsFile>) | undefined
}

/** Creates the extractive model. */
export function createExtractiveLanguageModel(options: ExtractiveModelOptions = {}): LanguageModel {
  if (options.pool) {
    const { work, threads } = options.pool
    return threadedModel(
      createExtractiveLanguageModel({ wordVectors: options.wordVectors }),
      async () => work,
      threads,
      options.wordVectors,
    )
  }
  const threads = Math.max(1, Math.floor(options.threads ?? 1))
  if (threads > 1) {
    let pool: Promise<CpuWork> | null = null
    const ownPool = () =>
      (pool ??= import('../node/cpu-thread-pool.ts').then((loaded) =>
        loaded.createCpuThreadPool({
          threads,
          limits: () => ({ running: threads, waiting: Number.POSITIVE_INFINITY }),
          maxWaiting: Number.POSITIVE_INFINITY,
        }),
      ))
    const single = createExtractiveLanguageModel({ wordVectors: options.wordVectors })
    return threadedModel(single, ownPool, threads, options.wordVectors)
  }
  const wordVectors = options.wordVectors
  return {
    name: EXTRACTIVE_MODEL_NAME,
    // Each skill is one synchronous pass that cannot be interrupted: the signal is checked before
    // it starts, which is as early as an abort can be seen.
    summarize: async ({ units, budgetTokens, terse = false, signal }) => {
      const budget = checkedBudget(budgetTokens)
      throwIfAborted(signal, EXTRACTIVE_MODEL_NAME)
      return call(SummarySchema, summarizeUnits(checked(units), budget, terse))
    },
    summarizeLevels: async ({ units, budgets, signal }) => {
      const checkedBudgets = budgets.map(checkedBudget)
      throwIfAborted(signal, EXTRACTIVE_MODEL_NAME)
      return call(MeasuredSummarySchema.array(), summarizeLevels(checked(units), checkedBudgets))
    },
    extractObservations: async ({ units, signal }) => {
      throwIfAborted(signal, EXTRACTIVE_MODEL_NAME)
      return call(ObservationSchema.array(), extractObservations(checked(units)))
    },
    extractPatterns: async ({ units, signal }) => {
      throwIfAborted(signal, EXTRACTIVE_MODEL_NAME)
      return call(PatternSchema.array(), extractPatterns(checked(units)))
    },
    groupSimilar: async ({ units, threshold = DEFAULT_GROUP_THRESHOLD, signal }) => {
      throwIfAborted(signal, EXTRACTIVE_MODEL_NAME)
      checkThreshold(threshold)
      const meaning = wordVectors ? await wordVectors() : undefined
      return call(GroupSchema.array(), groupSimilar(checked(units), threshold, meaning))
    },
    reflect: async ({ units, signal }) => {
      throwIfAborted(signal, EXTRACTIVE_MODEL_NAME)
      return call(ReflectionSchema, reflect(checked(units)))
    },
    // The draft is already the extractive digest: built from the transcript by engine/core/digest.
    digestSession: async ({ draft, signal }) => {
      throwIfAborted(signal, EXTRACTIVE_MODEL_NAME)
      return { value: draft, model: EXTRACTIVE_MODEL_NAME, usage: NO_USAGE }
    },
  }
}

function checkThreshold(threshold: number): void {
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new SomnusError(
      'USAGE',
      `Similarity threshold must be between 0 and 1 (got ${threshold}).`,
    )
  }
}

/** Wraps a value after the same schema check an LLM adapter applies to a model's answer. */
function call<T>(schema: z.ZodType<T>, value: unknown): ModelCall<T> {
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    throw new SomnusError(
      'MODEL_OUTPUT_INVALID',
      `The extractive model produced output that fails its schema (${parsed.error.issues[0]?.message ?? 'invalid'}); this is a Somnus bug, please report it with the input.`,
    )
  }
  return { value: parsed.data, model: EXTRACTIVE_MODEL_NAME, usage: NO_USAGE }
}

/** The lane the model's calls take in a shared pool: consolidation jobs, beside the tenants. */
export const MODEL_LANE = 'consolidation'

/** `model` with its CPU skills (summaries, grouping) on `work`'s threads, in MODEL_LANE. */
function threadedModel(
  model: LanguageModel,
  work: () => Promise<CpuWork>,
  threads: number,
  wordVectors: (() => Promise<WordVectorsFile>) | undefined,
): LanguageModel {
  const levels = async (
    units: Unit[],
    budgets: number[],
    signal: AbortSignal | undefined,
    terseFrom = 1,
  ) => {
    const checkedBudgets = budgets.map(checkedBudget)
    const checkedInput = checked(units)
    throwIfAborted(signal, EXTRACTIVE_MODEL_NAME)
    return (await work()).run(MODEL_LANE, 'summarizeLevels', [
      checkedInput,
      checkedBudgets,
      terseFrom,
    ])
  }
  return {
    ...model,
    // Two calls per thread keep every thread busy while answers travel back.
    concurrency: threads * 2,
    summarize: async ({ units, budgetTokens, terse = false, signal }) => {
      const [summary] = await levels(units, [budgetTokens], signal, terse ? 0 : 1)
      return call(SummarySchema, summary)
    },
    summarizeLevels: async ({ units, budgets, signal }) =>
      call(MeasuredSummarySchema.array(), await levels(units, budgets, signal)),
    groupSimilar: async ({ units, threshold = DEFAULT_GROUP_THRESHOLD, signal }) => {
      throwIfAborted(signal, EXTRACTIVE_MODEL_NAME)
      checkThreshold(threshold)
      // Shared memory: the thread gets the vectors without a copy and decodes them once.
      const meaning = wordVectors ? await wordVectors() : undefined
      const groups = await (await work()).run(MODEL_LANE, 'groupSimilar', [
        checked(units),
        threshold,
        meaning,
      ])
      return call(GroupSchema.array(), groups)
    },
  }
}
