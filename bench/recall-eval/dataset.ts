// The recall evaluation set (bench/fixtures/recall-eval): multi-speaker dated turns in
// several channels, and questions naming the turns that answer them. Each turn becomes the
// message a user would send to POST /api/agent/chat, `[3 June 2024] Alex: ...`.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface EvalTurn { channel: string, session: string, date: string, speaker: string, text: string, message: string, tag?: string }
export interface EvalQuestion { channel: string, category: string, question: string, evidence: string[] }
export interface EvalSet { turns: EvalTurn[], questions: EvalQuestion[], channels: string[] }

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'recall-eval')

export function parseConversations (text: string): EvalTurn[] {
  const turns: EvalTurn[] = []
  let channel = ''
  let date = ''
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '') continue
    const ch = /^# channel: (\S+)$/.exec(line)
    if (ch !== null) { channel = ch[1]; continue }
    if (line.startsWith('## ')) { date = line.slice(3).trim(); continue }
    if (line.startsWith('#')) continue
    const m = /^([A-Z][\w ]*?): (.*?)(?: \{([\w-]+)\})?$/.exec(line)
    if (m === null || channel === '' || date === '') throw new Error(`conversations.txt: cannot read "${line}"`)
    const [, speaker, body, tag] = m
    turns.push({ channel, session: `${channel}:${date}`, date, speaker, text: body, message: `[${date}] ${speaker}: ${body}`, tag })
  }
  return turns
}

export function parseQuestions (text: string): EvalQuestion[] {
  return text.split('\n').map(l => l.trim()).filter(l => l !== '' && !l.startsWith('#')).map(line => {
    const [channel, category, question, evidence] = line.split('|').map(s => s.trim())
    if (evidence === undefined) throw new Error(`questions.txt: cannot read "${line}"`)
    return { channel, category, question, evidence: evidence.split(',').map(s => s.trim()) }
  })
}

export function loadEvalSet (): EvalSet {
  const turns = parseConversations(readFileSync(path.join(DIR, 'conversations.txt'), 'utf8'))
  const questions = parseQuestions(readFileSync(path.join(DIR, 'questions.txt'), 'utf8'))
  const tags = new Map<string, EvalTurn>()
  for (const t of turns) {
    if (t.tag === undefined) continue
    const key = `${t.channel}/${t.tag}`
    if (tags.has(key)) throw new Error(`conversations.txt: tag {${t.tag}} used twice in ${t.channel}`)
    tags.set(key, t)
  }
  for (const q of questions) {
    for (const e of q.evidence) if (!tags.has(`${q.channel}/${e}`)) throw new Error(`questions.txt: no turn {${e}} in ${q.channel} for "${q.question}"`)
  }
  return { turns, questions, channels: [...new Set(turns.map(t => t.channel))] }
}

/**
 * The set with distractors: each channel also gets every other channel's messages, spoken
 * by its own speakers (names swapped) on its own dates, untagged. A channel then holds
 * about as many turns as the whole set, closer to a long real conversation, and its
 * near-misses are plausible ("We finally adopted a dog" in a channel asking about rats).
 * `turns` (the default): a few distractor messages after each real one, so no real turn
 * follows another. `sessions`: whole distractor sessions between the real sessions, so a
 * channel reads as one long conversation in order (the held-out benchmark's shape: each
 * channel one conversation between two speakers, over many dated sessions).
 */
export function withDistractors (s: EvalSet, mix: 'turns' | 'sessions' = 'turns'): EvalSet {
  const speakers = new Map(s.channels.map(c => [c, [...new Set(s.turns.filter(t => t.channel === c).map(t => t.speaker))]]))
  const dates = new Map(s.channels.map(c => [c, [...new Set(s.turns.filter(t => t.channel === c).map(t => t.date))]]))
  const extra: EvalTurn[] = []
  for (const c of s.channels) {
    const mine = speakers.get(c) ?? []
    const myDates = dates.get(c) ?? []
    for (const t of s.turns) {
      if (t.channel === c) continue
      const theirs = speakers.get(t.channel) ?? []
      let text = t.text
      theirs.forEach((name, i) => { text = text.replaceAll(name, mine[i % mine.length]) })
      const speaker = mine[theirs.indexOf(t.speaker) % mine.length]
      const date = myDates[(dates.get(t.channel) ?? []).indexOf(t.date) % myDates.length]
      // `sessions`: a copied session stays one block (one conversation); `turns`: one per date, as before.
      extra.push({ channel: c, session: mix === 'turns' ? `${c}:${date}:x` : `${c}:${t.session}:x`, date, speaker, text, message: `[${date}] ${speaker}: ${text}` })
    }
  }
  // Interleaved, so the distractors are not all newer than the real turns.
  const real = mix === 'turns' ? s.turns.map(t => [t]) : sessionsOf(s.turns)
  const copies = mix === 'turns' ? extra.map(t => [t]) : sessionsOf(extra)
  const per = Math.ceil(copies.length / Math.max(real.length, 1))
  const turns: EvalTurn[] = []
  real.forEach((r, i) => { turns.push(...r, ...copies.slice(i * per, (i + 1) * per).flat()) })
  turns.push(...copies.slice(real.length * per).flat())
  return { ...s, turns }
}

/** Turns grouped by session, in order of each session's first turn. */
function sessionsOf (turns: EvalTurn[]): EvalTurn[][] {
  const by = new Map<string, EvalTurn[]>()
  for (const t of turns) {
    const group = by.get(t.session)
    if (group === undefined) by.set(t.session, [t])
    else group.push(t)
  }
  return [...by.values()]
}

/** What the assistant answers each message with when the set is ingested through chat: identical short replies, as a terse model gives. */
export const ASSISTANT_REPLIES = ['OK.', 'OK.', 'Noted.', 'Got it, thanks for telling me.', 'OK.']
