// The offline extractor's vocabulary (offline-extractor.ts): the regular-expression pieces
// its patterns are built from, and the words that are never names or titles.

/** A run of capitalised words ("Mountain View", "St. Mary's Hospital", "Tesla Model 3", "KPMG"). */
export const NAME = "(?:[A-Z][\\p{L}'.&-]*)(?:\\s+(?:(?:of|de|la|del|von|van|the|and|&)\\s+)?(?:[A-Z][\\p{L}'.&-]*|\\d+\\b))*"
/** Words that end a lowercase object ("tennis every Saturday", "chef before I ..."). */
export const STOP = '(?:anymore|any more|again|too|either|yet|already|at|in|for|and|but|or|as|with|from|to|since|because|before|after|when|while|every|each|on|now|then|though|although|so|who|which|that|not|during|twice|once|most|sometimes|over|than|last|next|this|these)'
export const LOWER = `[a-z][\\p{Ll}'-]*(?:\\s+(?!${STOP}\\b)[a-z][\\p{Ll}'-]*){0,3}`
/** An employer or school: "Google", "a small startup called Nimbus Labs", "the city council". */
export const ORG = `(?:(?:a|an)\\s+(?:[a-z]+\\s+){0,3}?(?:called|named)\\s+(${NAME})|(${NAME})|(the(?:\\s+(?!${STOP}\\b)[a-z]+){1,3}))`
export const END = `(?=\\s+${STOP}\\b|\\s*[,.;:!?)]|\\s*$)`
export const RELATIONS = 'best friend|sister|brother|wife|husband|partner|girlfriend|boyfriend|son|daughter|friend|boss|manager|mother|mom|mum|father|dad|colleague|coworker|cousin|uncle|aunt|grandmother|grandfather|roommate|fiancée|fiancee|fiancé|fiance|neighbour|neighbor'
export const PETS = 'dog|cat|puppy|kitten|parrot|rabbit|hamster|horse|bird|fish|turtle|guinea pig'
export const DIETS = 'vegan|vegetarian|pescatarian|pescetarian'
/** First words of what follows "I'm a" that make it no job title: a size, a judgement, an age ("when I was a kid"). */
export const NOT_TITLES = new Set(['big', 'huge', 'bit', 'little', 'lot', 'fan', 'few', 'new', 'good', 'great', 'very', 'really', 'real', 'bad', 'total', 'complete', 'person', 'kind', 'sort', 'fine', 'kid', 'child', 'boy', 'girl', 'baby', 'teen', 'teenager', 'toddler'])

/** Capitalised words that are not names of things to remember. */
export const NOT_NAMES = new Set([
  'i', "i'm", "i've", "i'll", "i'd", 'ok', 'okay', 'hi', 'hello', 'hey', 'yes', 'no', 'yeah', 'sorry', 'thanks', 'actually', 'before', 'after', 'my', 'we', 'our', 'it', 'the', 'a', 'an', 'and', 'but', 'so', 'oh', 'well', 'also', 'sure', 'good', 'nice', 'what', 'this', 'that', 'he', 'she', 'they',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'english', 'french', 'german', 'spanish', 'italian', 'portuguese', 'dutch', 'mandarin', 'cantonese', 'chinese', 'japanese', 'korean', 'russian', 'arabic', 'hindi', 'greek', 'polish', 'swedish', 'turkish', 'hebrew', 'latin',
  'american', 'british', 'canadian', 'australian', 'indian', 'european', 'asian', 'african', 'mom', 'dad', 'mum', 'god', 'tv', 'christmas', 'easter',
])
