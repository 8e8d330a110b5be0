// Tree-of-thought search: best-first over partial reasoning paths. Each expansion asks the
// model for k candidate next thoughts (one call), scores each candidate with its own model
// call, and keeps the `breadth` best open nodes. At most `depth` expansions happen, so a
// full search makes `depth` proposal calls and `k * depth` scoring calls, then one call
// that answers from the best path.
import type { StrategyContext, StrategyResult } from '@agentd/sdk/contracts/strategy'
import type { Message } from '@agentd/sdk/contracts/provider'
import { listItems, parseJsonLoose, splitThinking } from '@agentd/sdk/kits/output'

export interface TotOptions { k: number, depth: number, breadth: number }

interface Node { thoughts: string[], score: number, depth: number, seq: number }

const pathText = (n: Node): string => n.thoughts.map((t, i) => `${i + 1}. ${t}`).join('\n')

/** Candidate thoughts from a proposal reply: a JSON array, `{thoughts: [...]}`, or list lines. */
export function parseCandidates (text: string, k: number): string[] {
  const json = parseJsonLoose(text)
  const arr = Array.isArray(json) ? json : (json !== null && typeof json === 'object' && Array.isArray((json as { thoughts?: unknown }).thoughts)) ? (json as { thoughts: unknown[] }).thoughts : undefined
  let items = arr?.map(x => typeof x === 'string' ? x : JSON.stringify(x)) ?? listItems(splitThinking(text).answer)
  if (items.length === 0) items = splitThinking(text).answer.split(/\n\s*\n/)
  return items.map(s => s.trim()).filter(s => s !== '').slice(0, k)
}

/** A score in [0, 1] from a rating reply ("7", "Score: 7/10", "0.7", `{"score": 7}`); whole numbers are on the 1-10 scale. */
export function parseScore (text: string): number | undefined {
  const json = parseJsonLoose(text)
  const fromJson = typeof json === 'number' ? json : (json !== null && typeof json === 'object' ? (json as { score?: unknown }).score : undefined)
  const m = /-?\d+(?:\.\d+)?/.exec(splitThinking(text).answer)
  const raw = typeof fromJson === 'number' ? fromJson : m === null ? undefined : Number(m[0])
  if (raw === undefined || !Number.isFinite(raw)) return undefined
  // The prompt asks for 1-10: whole numbers are on that scale; a fraction up to 1 is a probability.
  const scaled = Number.isInteger(raw) || raw > 1 ? raw / 10 : raw
  return Math.min(1, Math.max(0, scaled))
}

function baseMessages (ctx: StrategyContext, instruction: string): Message[] {
  return [...ctx.messages, { role: 'user', content: instruction }]
}

export async function treeOfThought (ctx: StrategyContext, opts: TotOptions): Promise<StrategyResult> {
  let seq = 0
  const root: Node = { thoughts: [], score: 0, depth: 0, seq: seq++ }
  let frontier: Node[] = [root]
  let best = root
  const better = (a: Node, b: Node): boolean => a.score > b.score || (a.score === b.score && a.depth > b.depth)
  const jsonMode = ctx.capabilities('reasoning').supports_json_mode

  for (let expansion = 0; expansion < opts.depth; expansion++) {
    frontier = frontier.filter(n => n.depth < opts.depth).sort((a, b) => better(a, b) ? -1 : better(b, a) ? 1 : a.seq - b.seq)
    const node = frontier.shift()
    if (node === undefined) break
    const sofar = node.thoughts.length === 0 ? 'No reasoning yet.' : `Reasoning so far:\n${pathText(node)}`
    const proposal = await ctx.complete({
      messages: baseMessages(ctx, `${sofar}\n\nPropose ${opts.k} distinct, promising next reasoning steps toward the answer. Reply with a JSON array of ${opts.k} strings, one step each.`),
      temperature: 0.8,
      ...(jsonMode ? { response_format: { type: 'json_schema' as const, name: 'thoughts', schema: { type: 'object', properties: { thoughts: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: opts.k } }, required: ['thoughts'], additionalProperties: false } } } : {}),
    }, { role: 'reasoning', trace: { type: 'proposal', depth: node.depth + 1 } })
    const thoughts = parseCandidates(proposal.content, opts.k)
    for (const thought of thoughts) {
      ctx.trace({ type: 'candidate', content: thought, depth: node.depth + 1 })
      const path: Node = { thoughts: [...node.thoughts, thought], score: 0, depth: node.depth + 1, seq: seq++ }
      const rating = await ctx.complete({
        messages: baseMessages(ctx, `Rate how likely this reasoning path is to lead to a correct, complete answer, from 1 (dead end) to 10 (certainly right). Reply with the number only.\n\n${pathText(path)}`),
        temperature: 0,
      }, { role: 'reasoning', trace: false })
      const score = parseScore(rating.content)
      path.score = score ?? 0
      ctx.trace({ type: 'score', content: rating.content.trim(), score: path.score, depth: path.depth, thought, model: rating.model_id, tokens: rating.usage.total_tokens, time_ms: rating.time_ms, ...(score === undefined ? { note: 'no number in the rating; scored 0' } : {}) })
      frontier.push(path)
      if (better(path, best)) best = path
    }
    frontier = frontier.sort((a, b) => better(a, b) ? -1 : better(b, a) ? 1 : a.seq - b.seq).slice(0, opts.breadth)
    ctx.progress(pathText(best))
  }

  const final = await ctx.complete({
    messages: baseMessages(ctx, best.thoughts.length === 0
      ? 'Answer the step directly.'
      : `Follow this reasoning path and give the final answer to the step. Do not restate the path.\n\n${pathText(best)}`),
  }, { role: 'step', trace: { type: 'answer', path: best.thoughts, score: best.score } })
  const { answer, thinking } = splitThinking(final.content, final.thinking)
  return { answer, thinking: [pathText(best), thinking].filter(s => s !== '').join('\n\n'), reasoning_steps: best.thoughts.length }
}
