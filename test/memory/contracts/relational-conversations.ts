// The relational store contract, conversations slice (ConversationStore over turns and the
// tool log): deleting a conversation.
import type { Test } from 'tap'
import type { ConversationStore, ToolLogStore, TurnStore } from '@agentd/sdk/contracts/memory-stores'

export function conversationSlice (t: Test, store: ConversationStore & TurnStore & ToolLogStore): void {
  t.test('deleting a conversation removes its turns and says how many', async t => {
    await store.addTurn({ conversation_id: 'del-me', role: 'user', content: 'x', channel: 'a' })
    await store.addTurn({ conversation_id: 'del-me', role: 'assistant', content: 'y', channel: 'a' })
    await store.addToolInvocation({ conversation_id: 'del-me', tool: 't', arguments: {}, result: 'r', is_error: false, duration_ms: 1, channel: 'a' })
    t.same(await store.deleteConversation('del-me'), { turns: 2, conversations: 1, tool_invocations: 1 })
    t.same(await store.conversationTurns('del-me', 10), [])
    t.equal(await store.deleteConversation('del-me'), null, 'unknown now')
  })
}
