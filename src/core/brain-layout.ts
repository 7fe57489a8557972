/** Names of the brain's folders and files, as the seeds lay them out. */

/** The name of the context folder, as in the seeds. */
export const CONTEXT_DIR_NAME = '_agent_context'
