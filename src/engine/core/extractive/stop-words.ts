/**
 * Word lists the extractive model treats as carrying no facts. STOP_WORDS is NLTK's English list
 * (`nltk.corpus.stopwords.words('english')`, 179 words) plus each contraction without its
 * apostrophe, so text that lost its punctuation is filtered the same way.
 */

const NLTK_ENGLISH =
  `i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
yourselves he him his himself she she's her hers herself it it's its itself they them their theirs
themselves what which who whom this that that'll these those am is are was were be been being have has
had having do does did doing a an the and but if or because as until while of at by for with about
against between into through during before after above below to from up down in out on off over under
again further then once here there when where why how all any both each few more most other some such
no nor not only own same so than too very s t can will just don don't should should've now d ll m o re
ve y ain aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't
isn isn't ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't
weren weren't won won't wouldn wouldn't`.split(/\s+/)

/** Function words (NLTK's English list), with and without apostrophes. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  NLTK_ENGLISH.flatMap((word) => (word.includes("'") ? [word, word.replace(/'/g, '')] : [word])),
)

/**
 * Words of social talk (greetings, thanks, laughter, praise, fillers): they are not stop words in
 * general, but in a transcript they mark chatter rather than facts. Our own list, kept short.
 */
export const CHATTER_WORDS: ReadonlySet<string> = new Set(
  `hi hey hello hiya yo bye goodbye cya thanks thank thx ty appreciate appreciated welcome haha hahaha
  hehe lol lmao rofl wow whoa omg gosh yay yeah yep yup yes ok okay oh ah aw aww awww hmm um uh
  cool awesome amazing great nice wonderful fantastic incredible lovely sweet glad happy congrats
  congratulations totally definitely absolutely really super so very pretty sure cheers please
  sounds good bad fun cute impressive inspiring proud hear hope know mean like well also
  guess think feel glad lot much things thing stuff way`.split(/\s+/),
)
