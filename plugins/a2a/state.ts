// What outlives a generation: the tasks (for tasks/get), the contexts' histories, the
// event buses of tasks in flight and each running task's abort controller. Held in the
// resource pool, so a task started before a live reload can still be read, streamed and
// cancelled after it.
import type { ExecutionEventBusManager } from '@a2a-js/sdk/server'
import type { FastifyInstance } from 'fastify'
import type { A2AOptions } from './options.ts'
import { ContextStore } from './contexts.ts'
import { BoundedTaskStore } from './task-store.ts'

export interface A2AState {
  tasks: BoundedTaskStore
  contexts: ContextStore
  /** Set by the first generation that loads the SDK (runtime.ts), kept by the later ones. */
  buses: ExecutionEventBusManager | undefined
  /** Running tasks by id: aborting one stops its model and tool calls. */
  running: Map<string, AbortController>
}

export async function acquireState (app: FastifyInstance, opts: A2AOptions): Promise<A2AState> {
  return await app.resources.acquire({
    kind: 'a2a-state',
    options: { contexts: opts.max_contexts, messages: opts.max_context_messages, tasks: opts.max_tasks },
    create: () => ({
      tasks: new BoundedTaskStore(opts.max_tasks),
      contexts: new ContextStore(opts.max_contexts, opts.max_context_messages),
      buses: undefined,
      running: new Map<string, AbortController>(),
    }),
    dispose: (s) => { for (const c of s.running.values()) c.abort(new Error('agentd is shutting down')) },
  })
}
