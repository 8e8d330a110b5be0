// A streaming parser that separates reasoning from the answer in model output.
// Text inside <think>, <thinking>, <reasoning> or <reflection> blocks (any case) is
// thinking; so is everything after an opening tag that never closes (a model cut off
// mid-thought, or one whose reply starts with an unclosed <think>). Provider-native
// reasoning (a stream's reasoning-delta parts) is merged in through `native()`.
//
// It works on a stream: a tag split across chunks at any position is recognised,
// because a tail that could still become a tag is held back until the next chunk
// decides it. Whitespace is normalised the same way whether the text comes whole or
// in pieces: the answer has no leading or trailing whitespace, each thinking block is
// trimmed, and blocks are separated by a blank line. So the concatenation of the
// streamed pieces always equals the final `answer` / `thinking`.

export const THINK_TAGS = ['think', 'thinking', 'reasoning', 'reflection'] as const

export interface ThinkPiece {
  kind: 'answer' | 'thinking'
  text: string
}

const OPEN_TAGS = THINK_TAGS.map(t => `<${t}>`)
// A closing tag with no opening one is dropped from the answer, not shown to the user.
const STRAY_CLOSE_TAGS = THINK_TAGS.map(t => `</${t}>`)
const OUTSIDE_TAGS = [...OPEN_TAGS, ...STRAY_CLOSE_TAGS]

/** True when `s` (lower case) is a proper prefix of one of `tags`. */
function couldBecome (s: string, tags: readonly string[]): boolean {
  return tags.some(t => t.length > s.length && t.startsWith(s))
}

interface Channel {
  /** Whitespace held back: emitted only if more non-whitespace text follows in the same block. */
  pendingWs: string
  /** True until the current block has emitted non-whitespace text. */
  atBlockStart: boolean
  /** Whether anything at all was emitted on this channel (for the block separator). */
  emittedAny: boolean
  /** Answer only: a thinking block interrupted the answer; whitespace around it collapses to one run. */
  afterBlock: boolean
  /** Whitespace seen since the interruption. */
  wsAfter: string
}

export class ThinkParser {
  /** Unprocessed text: at most a possible partial tag once push() returns. */
  #buf = ''
  /** The closing tag we wait for while inside a block, else null. */
  #closeTag: string | null = null
  /** True while the current thinking block is provider-native reasoning. */
  #inNative = false
  readonly #answer: Channel = { pendingWs: '', atBlockStart: true, emittedAny: false, afterBlock: false, wsAfter: '' }
  readonly #thinking: Channel = { pendingWs: '', atBlockStart: true, emittedAny: false, afterBlock: false, wsAfter: '' }
  #answerText = ''
  #thinkingText = ''

  /** Everything emitted so far as answer. */
  get answer (): string { return this.#answerText }
  /** Everything emitted so far as thinking (tag blocks and native reasoning, in arrival order). */
  get thinking (): string { return this.#thinkingText }
  get hasThinking (): boolean { return this.#thinkingText !== '' }

  /** Feeds model output text; returns the pieces that are now certain. */
  push (text: string): ThinkPiece[] {
    const out: ThinkPiece[] = []
    if (text === '') return out
    if (this.#inNative) this.#endThinkingBlock()
    this.#buf += text
    this.#scan(out)
    return out
  }

  /** Feeds provider-native reasoning text. */
  native (text: string): ThinkPiece[] {
    const out: ThinkPiece[] = []
    if (text === '') return out
    if (!this.#inNative) {
      // Native reasoning never arrives inside a tag block; whatever tag text is pending stays pending.
      this.#inNative = true
      this.#thinking.atBlockStart = true
      this.#thinking.pendingWs = ''
    }
    this.#emit(out, 'thinking', text)
    return out
  }

  /** The stream ended: flushes what was held back. */
  end (): ThinkPiece[] {
    const out: ThinkPiece[] = []
    if (this.#closeTag !== null) {
      // Unclosed block: the rest is thinking; a truncated closing tag at the very end is dropped.
      const tail = this.#buf.toLowerCase()
      const lt = tail.lastIndexOf('<')
      const keep = lt >= 0 && couldBecome(tail.slice(lt), [this.#closeTag]) ? this.#buf.slice(0, lt) : this.#buf
      this.#emit(out, 'thinking', keep)
    } else {
      this.#emit(out, 'answer', this.#buf)
    }
    this.#buf = ''
    this.#closeTag = null
    this.#inNative = false
    return out
  }

  #scan (out: ThinkPiece[]): void {
    for (;;) {
      if (this.#closeTag === null) {
        const lower = this.#buf.toLowerCase()
        let from = 0
        let matched = false
        for (;;) {
          const i = lower.indexOf('<', from)
          if (i < 0) { this.#emit(out, 'answer', this.#buf); this.#buf = ''; return }
          const rest = lower.slice(i)
          const tag = OUTSIDE_TAGS.find(t => rest.startsWith(t))
          if (tag !== undefined) {
            this.#emit(out, 'answer', this.#buf.slice(0, i))
            this.#buf = this.#buf.slice(i + tag.length)
            if (tag.startsWith('</')) {
              // Stray close: drop it and stay outside; its surrounding whitespace collapses
              // like a block's ("Answer </think> here" reads "Answer here").
              this.#answer.afterBlock = true
              this.#answer.wsAfter = ''
              matched = true
              break
            }
            this.#closeTag = `</${tag.slice(1)}`
            this.#startThinkingBlock()
            matched = true
            break
          }
          if (couldBecome(rest, OUTSIDE_TAGS)) {
            // Hold the possible partial tag until the next chunk decides.
            this.#emit(out, 'answer', this.#buf.slice(0, i))
            this.#buf = this.#buf.slice(i)
            return
          }
          from = i + 1
        }
        if (!matched) return
      } else {
        const close = this.#closeTag
        const lower = this.#buf.toLowerCase()
        const i = lower.indexOf(close)
        if (i >= 0) {
          this.#emit(out, 'thinking', this.#buf.slice(0, i))
          this.#buf = this.#buf.slice(i + close.length)
          this.#closeTag = null
          this.#endThinkingBlock()
          continue
        }
        const lt = lower.lastIndexOf('<')
        if (lt >= 0 && couldBecome(lower.slice(lt), [close])) {
          this.#emit(out, 'thinking', this.#buf.slice(0, lt))
          this.#buf = this.#buf.slice(lt)
        } else {
          this.#emit(out, 'thinking', this.#buf)
          this.#buf = ''
        }
        return
      }
    }
  }

  #startThinkingBlock (): void {
    this.#inNative = false
    this.#answer.afterBlock = true
    this.#answer.wsAfter = ''
    this.#thinking.atBlockStart = true
    this.#thinking.pendingWs = ''
  }

  #endThinkingBlock (): void {
    this.#inNative = false
    this.#thinking.atBlockStart = true
    this.#thinking.pendingWs = ''
  }

  #emit (out: ThinkPiece[], kind: 'answer' | 'thinking', text: string): void {
    if (text === '') return
    const ch = kind === 'answer' ? this.#answer : this.#thinking
    let t = text
    if (ch.atBlockStart) {
      t = t.trimStart()
      if (t === '') return
    } else if (ch.afterBlock) {
      // "A <think>..</think> B" reads "A B": the whitespace before the block wins, else the one after it.
      const rest = t.trimStart()
      ch.wsAfter += t.slice(0, t.length - rest.length)
      if (rest === '') return
      if (ch.pendingWs === '') ch.pendingWs = ch.wsAfter
      ch.afterBlock = false
      t = rest
    }
    const body = t.trimEnd()
    const ws = t.slice(body.length)
    if (body === '') { ch.pendingWs += ws; return }
    let piece = ch.pendingWs + body
    if (ch.atBlockStart && kind === 'thinking' && ch.emittedAny) piece = `\n\n${piece}`
    ch.atBlockStart = false
    ch.pendingWs = ws
    ch.emittedAny = true
    if (kind === 'answer') this.#answerText += piece
    else this.#thinkingText += piece
    const last = out.at(-1)
    if (last !== undefined && last.kind === kind) last.text += piece
    else out.push({ kind, text: piece })
  }
}

/** Splits a whole text at once (the non-streaming path uses the same parser). */
export function splitThinking (text: string, nativeThinking?: string): { answer: string, thinking: string, has_thinking: boolean } {
  const p = new ThinkParser()
  if (nativeThinking !== undefined) p.native(nativeThinking)
  p.push(text)
  p.end()
  return { answer: p.answer, thinking: p.thinking, has_thinking: p.hasThinking }
}
