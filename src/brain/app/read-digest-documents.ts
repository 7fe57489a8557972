/** Use case: the texts of every session digest the brain keeps (`knowledge/sessions/*.md`), oldest first. */
import type { Brain } from './brain.ts'

/** Every digest document's text, by its dated name. */
export async function readDigestDocuments(brain: Brain): Promise<string[]> {
  const slugs = (await brain.files.list('digest'))
    .flatMap((document) => (document.kind === 'digest' ? [document.slug] : []))
    .sort()
  const texts = await Promise.all(slugs.map((slug) => brain.files.read({ kind: 'digest', slug })))
  return texts.filter((text): text is string => text !== null)
}
