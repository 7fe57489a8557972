/**
 * The consolidation service's settings. Every default is seed 003's number (docs/design/origins.md)
 * (thresholds 30 / 90 / 180 / 60 days, 10 "becoming" statements before identity consolidation, ~500
 * and ~100 token levels); the
 * cron times are the public scheduler's (daily 02:00, weekly Sunday 03:00, monthly the 1st at
 * 04:00, UTC).
 */
import * as z from 'zod'
import { SomnusError } from '../../engine/core/errors.ts'

const days = z.number().int().min(0).max(36_500)
const positive = z.number().int().positive()

/** The settings schema; every key optional in input, defaulted in output. */
export const ServiceConfigSchema = z.object({
  summary_threshold_days: days.default(30),
  quick_ref_threshold_days: days.default(90),
  integration_threshold_days: days.default(180),
  decision_archive_threshold_days: days.default(60),
  /**
   * The seed's "min becoming statements before consolidation": a tenant's identity consolidation
   * groups nothing until the tenant has this many non-empty "becoming" statements (integrated or
   * not), so a handful of early sessions is not yet read as an identity.
   */
  identity_consolidation_min_count: positive.default(10),
  /**
   * Statements a group needs to become a principle: a theme that recurs at least this often. 5:
   * the smallest size at which no principle on the tune split of the labelled statements is wrong
   * (mixes themes or takes in an unrelated statement) or repeats another's theme, at the default
   * threshold; 3 made 6 wrong of 15 and split 4 themes into two principles each (bench/README.md,
   * identity-grouping).
   */
  identity_theme_min_size: z.number().int().min(2).default(5),
  /**
   * Mean similarity within a theme, passed to the model's `groupSimilar`. Lower than the model's
   * 0.4 default: "becoming" statements are a handful of words, so paraphrases share few stems
   * (0.4 split 12 paraphrases of one idea into three groups; 0.2 kept them together and still
   * kept two different ideas apart; see consolidation-jobs.test.ts). With the word vectors the
   * service groups with, 0.2 is also the best F0.5 on the tune split of the labelled statements
   * (bench/README.md, identity-grouping).
   */
  identity_similarity_threshold: z.number().min(0).max(1).default(0.2),
  /** Becoming statements grouped per pass (grouping cost grows with the square of this). */
  identity_batch_size: positive.default(500),
  summary_budget_tokens: positive.default(500),
  quick_ref_budget_tokens: positive.default(100),
  /** Handoffs compressed per transaction: the unit of progress a dead worker's successor resumes from. */
  compression_batch_size: positive.default(200),
  /**
   * Worker threads for CPU work, so the thread that answers requests never does it: the extractive
   * model's summaries and grouping, and the redaction and token count of big handoffs. Set it to
   * the cores a server or worker may use.
   */
  compression_threads: positive.max(64).default(1),
  /** Big handoffs (over 16,384 characters of text) of one tenant counted at once on those threads. */
  tenant_cpu_concurrency: positive.max(64).default(1),
  /** Big handoffs of one tenant waiting for a thread, at most; more are refused (HTTP 429). */
  tenant_cpu_queue: positive.max(10_000).default(8),
  /** A running job whose worker has not reported for this long is taken over by another. */
  job_timeout_seconds: positive.default(300),
  /**
   * Failed attempts (an error, or a worker that stopped reporting) after which a job is
   * dead-lettered (status `dead`) instead of tried again.
   */
  job_max_failures: positive.default(3),
  /** Wait before retrying a failed job; doubled after each further failure, at most an hour. */
  job_retry_backoff_seconds: z.number().int().min(0).max(86_400).default(60),
  /** Cron expressions (croner syntax, UTC); an empty string switches that run off. */
  schedule: z
    .object({
      daily: z.string().default('0 2 * * *'),
      weekly: z.string().default('0 3 * * 0'),
      monthly: z.string().default('0 4 1 * *'),
    })
    .prefault({}),
})

/** Resolved service settings. */
export type ServiceConfig = z.infer<typeof ServiceConfigSchema>

/** The seed's defaults. */
export const DEFAULT_SERVICE_CONFIG: ServiceConfig = ServiceConfigSchema.parse({})

/** Settings from `overrides` over the defaults; a bad value is an error naming the key. */
export function resolveServiceConfig(overrides: unknown = {}): ServiceConfig {
  const parsed = ServiceConfigSchema.safeParse(overrides)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new SomnusError(
      'INVALID_INPUT',
      `Service setting ${issue?.path.join('.') || '(root)'} is invalid: ${issue?.message ?? 'bad value'}. Fix it or remove it to use the default.`,
    )
  }
  const config = parsed.data
  if (
    !(
      config.summary_threshold_days <= config.quick_ref_threshold_days &&
      config.quick_ref_threshold_days <= config.integration_threshold_days
    )
  ) {
    throw new SomnusError(
      'INVALID_INPUT',
      'Service thresholds must grow: summary_threshold_days <= quick_ref_threshold_days <= integration_threshold_days.',
    )
  }
  return config
}
