// Hand-written cues for choosing among the twenty languages when the detector's own
// answer lies outside them: frequent function words and letters that only some of the
// candidates use. General knowledge of each language, not chosen from or fitted to the
// UDHR text the accuracy test measures on.
import type { DetectionCode } from '@agentd/sdk/contracts/language'

/**
 * Frequent short function words: articles, pronouns, prepositions, conjunctions,
 * auxiliaries and particles from the top of each language's frequency lists. Content
 * words and words a test text happens to repeat ("everyone", "shall", "right") are left
 * out on purpose: the cues must hold for any text, not for the one they are tested on.
 */
export const FUNCTION_WORDS: Partial<Record<DetectionCode, ReadonlySet<string>>> = {
  en: new Set('the of and to in is that for it with as was on be by are this or an not have has which from his her he she they we you at but had were been will would there their'.split(' ')),
  es: new Set('el la los las de del que y en un una por con para es se su sus al lo como más o no ha son pero yo él ella muy este esta ya le les me hay fue era está'.split(' ')),
  fr: new Set('le la les de des du et en un une est que qui dans pour par sur au aux il elle ne pas son sa ses ou je nous vous ils mais avec ce cette était sont plus y'.split(' ')),
  de: new Set('der die das und ist in zu den dem des ein eine nicht mit von auf für sich auch im oder hat ich er sie es wir aber wird sind war noch nur einer einem einen'.split(' ')),
  it: new Set('il lo la gli le di del della che e è un una per con non in da al alla si sono ha o io lui lei ma anche questo questa come più nel nella dei delle'.split(' ')),
  nl: new Set('de het een en van in is dat op te voor met niet zijn aan er die of bij door heeft wordt ik je hij zij we maar ook nog al dan naar om werd was'.split(' ')),
  pl: new Set('i w z na do nie się jest to że o a jak ich jego lub przez od ma oraz być ale ten ta tak czy po za już jej tym tego są był była'.split(' ')),
  pt: new Set('o a os as de da do das dos e em um uma que para com não por no na se é ao ou seu sua tem mas eu ele ela muito foi são pelo pela também nos este esta'.split(' ')),
  sw: new Set('na ya wa kwa za katika ni la cha au hii kuwa yake hiyo vya zake lakini pia sana huo hizo wake yao wao hata kama tu ili'.split(' ')),
  tr: new Set('ve bir bu da de için ile olarak veya gibi daha çok olan ki ne ben sen o biz ama değil var yok en şu kadar sonra'.split(' ')),
  vi: new Set('và của có là các được không trong cho những một với này tôi anh đã sẽ cũng khi thì đó như từ'.split(' ')),
  ru: new Set('и в не на что с по как это он его к или быть для от я она они мы вы но так же бы уже из у за был была все только'.split(' ')),
  bg: new Set('и на да се от за е са в не с към този това или ще че като но аз той тя те ние вие му си беше бил след при'.split(' ')),
}

/** Letters that point at one candidate (shared ones are left out). */
export const MARK_LETTERS: Partial<Record<DetectionCode, string>> = {
  vi: 'ơưăđạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ',
  pl: 'ąęłńśźżć',
  tr: 'ğışİ',
  de: 'ßäöü',
  es: 'ñ¿¡',
  pt: 'ãõâêô',
  fr: 'èêçëïîœùû',
  it: 'ìò',
  ru: 'ыэё',
  bg: 'ъ',
}

/** Arabic-script letters Urdu uses and Standard Arabic does not. */
export const URDU_LETTERS = 'ٹڈڑںےہھکگچپیۓ'
