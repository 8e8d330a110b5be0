// A2A contexts: the message history of each `contextId` (A2A's conversation), so the
// second message of a context sees the first. In process, least recently used evicted
// past `max`, each bounded to whole turns (the conversation kit's capHistory). Held in
// the resource pool (state.ts), so a live reload keeps them.
import type { Message } from '@agentd/sdk/contracts/provider'
import { capHistory } from '@agentd/sdk/kits/conversation'

export class ContextStore {
  readonly #items = new Map<string, Message[]>()

  constructor (readonly max: number, readonly maxMessages: number) {}

  get (contextId: string): Message[] {
    const messages = this.#items.get(contextId)
    if (messages === undefined) return []
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.#items.delete(contextId)
    this.#items.set(contextId, messages)
    return messages
  }

  /** Appends one turn's messages to the context as it is now (a concurrent turn's are kept). */
  append (contextId: string, turn: Message[]): void {
    const next = capHistory([...(this.#items.get(contextId) ?? []), ...turn], this.maxMessages)
    this.#items.delete(contextId)
    this.#items.set(contextId, next)
    while (this.#items.size > this.max) {
      const oldest = this.#items.keys().next().value
      if (oldest === undefined) break
      this.#items.delete(oldest)
    }
  }
}
