/**
 * The entry `somnus summarize` imports when it runs: the summarizer, which counts with the
 * tokenizer. It lives apart from index.ts, which would load every brain use case with it, and
 * from create-somnus.ts, which every command loads.
 */
export {
  checkBudgetOptions,
  type SummarizeTextRequest,
  type SummarizeTextResult,
  type SummarySource,
  summarizeText,
} from './app/summarize-text.ts'
