// What must never become a memory: greetings and small talk, questions and requests to the
// agent, and text that was memory already (the recall block the agent was shown, pasted
// back) or the agent's own words quoted. Applied to user turns before any extractor sees
// them, and to what an extractor returns (a model may still pull a "fact" out of "thanks!").

/** The heading the memory plugin's renderer puts above recalled memory (render.ts). */
const RECALL_HEADING = /^Relevant memory \(from earlier conversations\):/m
const RECALL_SECTION = /^(Known facts|Active goals|Strategies that worked before|Relevant earlier conversation|Entities):\s*$/

/** Removes a pasted recall block: its heading, section titles and their "- " lines. */
export function stripRecalledMemory (text: string): string {
  if (!RECALL_HEADING.test(text)) return text
  const out: string[] = []
  let inBlock = false
  for (const line of text.split('\n')) {
    if (RECALL_HEADING.test(line)) { inBlock = true; continue }
    if (inBlock && (RECALL_SECTION.test(line.trim()) || /^\s*- /.test(line))) continue
    if (inBlock && line.trim() === '') { inBlock = false; continue }
    inBlock = false
    out.push(line)
  }
  return out.join('\n').trim()
}

const GREETING = /^(hi|hello|hey|hiya|yo|good (morning|afternoon|evening|night|day)|morning|evening|thanks?|thank you|thx|ty|cheers|ok(ay)?|k|cool|nice|great|awesome|perfect|wow|oh|ah|hmm+|um+|lol|haha+|hehe|yes|yeah|yep|yup|no|nope|nah|sure|right|exactly|indeed|bye|goodbye|see you|see ya|later|good|fine|alright|all right|got it|i see|makes sense|that makes sense|sounds good|no problem|np|please|welcome|sorry|ugh|oops|whatever|same|agreed|true|interesting|cool beans)\b/i
const REQUEST = /^(can|could|would|will|do|does|did|is|are|was|what|when|where|who|whom|why|how|which|should|shall|may|might)\b.*|^(please|let's|let me|tell me|show me|give me|help me|remind me|write|explain|summari[sz]e|translate|find|search|list|make|create)\b/i
const FILLER = /^(i'?m (fine|good|ok(ay)?|alright|great|well|doing (well|good|fine|great|ok(ay)?)|not sure|sure|back|here|sorry|so sorry)|i (think|guess|suppose) so|i see|i agree|i know|i don'?t know|me too|no idea|not really|that'?s (it|all|fine|ok(ay)?|great|cool|funny|amazing|nice|right|true|awesome))\b/i
const WEATHER = /\b(weather|raining|rain|sunny|snowing|cold|hot)\b.*\b(today|again|here|outside)\b|\b(today|again|here|outside)\b.*\b(raining|sunny|snowing)\b/i

/**
 * True for a sentence that holds nothing worth remembering: a greeting, thanks, an
 * acknowledgement, a question or request to the agent, filler, weather chatter.
 */
export function isSmallTalk (sentence: string): boolean {
  const s = sentence.trim().replace(/^[\s"'(]+/, '')
  if (s === '') return true
  if (/\?\s*$/.test(s)) return true
  if (!/[\p{L}]/u.test(s)) return true
  if (REQUEST.test(s)) return true
  if (WEATHER.test(s)) return true
  const words = s.split(/\s+/).length
  if (FILLER.test(s) && words <= 8) return true
  // A greeting, possibly with a few words after it ("thanks, that's really helpful!").
  if (GREETING.test(s)) {
    const rest = s.replace(GREETING, '').replace(/^[\s,!.:;-]+/, '')
    return rest === '' || !/\b(I|I'm|I've|I'll|my|me)\b/.test(rest)
  }
  return false
}

/** Sentences of a text (keeps "St. Mary's" and "e.g." together reasonably). */
export function sentences (text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z"'(])|\n+/)
    .map(s => s.trim())
    .filter(s => s !== '')
    .reduce<string[]>((out, s) => {
      // Re-join a split after a title abbreviation: "St." "Dr." "Mr." "Mrs." "Ms."
      const prev = out.at(-1)
      if (prev !== undefined && /\b(St|Dr|Mr|Mrs|Ms|Prof|Jr|Sr|Mt)\.$/.test(prev)) out[out.length - 1] = `${prev} ${s}`
      else out.push(s)
      return out
    }, [])
}

/** The informative part of a user turn: recalled memory and small-talk sentences removed. */
export function informativeText (text: string): string {
  return sentences(stripRecalledMemory(text)).filter(s => !isSmallTalk(s)).join(' ')
}

const norm = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()

/**
 * A test of whether a user sentence repeats (most of) something the agent said *before* it:
 * a quote, not a statement. Only an earlier assistant text can make it a quote: when the
 * model answers "You said: my name is Dana", the user's own sentence came first and stays
 * (small local models echo like this all the time). `turns` is the conversation in order;
 * the test takes the user turn's position in it. The agent's texts are normalised once
 * here, not once per sentence: for a long conversation that was quadratic (~0.4 s of the
 * server's thread for 44k characters each way).
 */
export function echoOf (turns: Array<{ role: string, content: string }>): (sentence: string, position: number) => boolean {
  const said = turns.flatMap((t, at) => t.role === 'assistant' ? [{ at, text: norm(t.content) }] : [])
  return (sentence, position) => {
    const n = norm(sentence)
    return n.length >= 12 && said.some(a => a.at < position && a.text.includes(n))
  }
}
