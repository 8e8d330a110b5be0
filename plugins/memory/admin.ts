// Store-wide administration: totals per channel (with the re-embed job's progress) and
// resetting consolidation (optionally deleting every consolidated memory).
import type { ServiceContext } from './context.ts'
import type { ChannelAdmin } from './channel-admin.ts'
import type { ReembedProgress } from './reembed.ts'

export interface MemoryStats { totals: Record<string, number>, by_channel: Record<string, Record<string, number>>, reembed: ReembedProgress }

export async function memoryStats (channels: ChannelAdmin, reembed: ReembedProgress): Promise<MemoryStats> {
  const counts = await channels.channelCounts()
  const totals = { entities: 0, facts: 0, strategies: 0, turns: 0 }
  const byChannel: Record<string, Record<string, number>> = {}
  for (const [ch, c] of Object.entries(counts)) {
    const row = { entities: c.entities ?? 0, facts: c.facts ?? 0, strategies: c.strategies ?? 0, turns: c.turns ?? 0 }
    byChannel[ch] = row
    for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += row[k]
  }
  return { totals, by_channel: byChannel, reembed }
}

export async function resetMemory (ctx: ServiceContext, deleteMemories: boolean): Promise<{ success: true, conversations_reset: number, memories_deleted: number }> {
  const rel = ctx.need('relational')
  const graph = deleteMemories ? ctx.need('graph') : undefined
  const conversationsReset = await rel.resetConsolidation()
  let memoriesDeleted = 0
  if (deleteMemories && graph !== undefined) memoriesDeleted = await graph.deleteAll() + await rel.deleteMemories()
  await rel.audit({ action: 'memory.reset', details: { delete_memories: deleteMemories, conversations_reset: conversationsReset, memories_deleted: memoriesDeleted } }).catch(() => {})
  return { success: true, conversations_reset: conversationsReset, memories_deleted: memoriesDeleted }
}
