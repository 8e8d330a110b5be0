// What an import created, so a failed import can take it back (transfer-apply.ts): the
// channels it created are deleted whole; in channels that were there before, the items it
// created are deleted one by one, newest first. Items that were already there (merged
// entities and facts, turns already stored) are left as they were.
import type { MemoryServiceImpl } from './service.ts'

type Kind = 'conversation' | 'entity' | 'fact' | 'goal' | 'strategy'

export class Undo {
  readonly #channels: string[] = []
  readonly #items: Array<{ kind: Kind, id: string, channel: string }> = []
  readonly #ids = new Set<string>()

  channel (name: string): void { this.#channels.push(name) }
  add (kind: Kind, id: string, channel: string): void { this.#items.push({ kind, id, channel }); this.#ids.add(id) }
  has (id: string): boolean { return this.#ids.has(id) }

  /** Best effort: each step runs even when one before it failed (the store may be the reason the import failed); what could not be undone is logged. */
  async run (svc: MemoryServiceImpl): Promise<void> {
    const created = new Set(this.#channels)
    const failed: string[] = []
    const step = async (what: string, fn: () => Promise<unknown>): Promise<void> => { await fn().catch((err: unknown) => { failed.push(`${what}: ${(err as Error).message}`) }) }
    for (const item of [...this.#items].reverse()) {
      if (created.has(item.channel)) continue
      await step(`${item.kind} ${item.id}`, async () => await remove(svc, item.kind, item.id))
    }
    for (const name of this.#channels) await step(`channel ${name}`, async () => await svc.channels.deleteChannel(name))
    if (failed.length > 0) svc.ctx.log.warn({ failed }, 'memory import: a failed import could not take back everything it wrote')
  }
}

async function remove (svc: MemoryServiceImpl, kind: Kind, id: string): Promise<unknown> {
  if (kind === 'conversation') return await svc.episodic.deleteConversation(id)
  if (kind === 'entity') return await svc.semantic.deleteEntity(id, 'system')
  if (kind === 'fact') return await svc.semantic.deleteFact(id, 'system')
  if (kind === 'goal') return await svc.procedural.deleteGoal(id, 'system')
  return await svc.procedural.deleteStrategy(id, 'system')
}
