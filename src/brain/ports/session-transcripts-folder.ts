/** Listing the transcripts beside a session's own, for SessionStart's catch-up of missed Stops. */

import type { SiblingTranscript } from '../core/missed-sessions.ts'

export type { SiblingTranscript }

/**
 * The `<uuid>.jsonl` regular files in the folder of `transcriptPath` (symlinks, FIFOs and other
 * non-files left out, never followed), among the folder's first entries only (the adapter streams
 * it and stops at a documented cap); empty when the folder cannot be listed. Adapter:
 * `brain/adapters/fs/sibling-transcripts.ts`.
 */
export type ListSiblingTranscripts = (transcriptPath: string) => SiblingTranscript[]
