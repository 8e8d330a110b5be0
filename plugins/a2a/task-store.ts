// The SDK's task store, bounded: tasks (and their artifacts) are kept for tasks/get until
// `max` newer ones pushed them out. One user (the SDK's user scopes are not used: agentd has
// one API key). Copies in and out, as the SDK's InMemoryTaskStore does, so a caller's
// change to a task it holds never reaches the store.
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk'
import type { TaskStore } from '@a2a-js/sdk/server'

export class BoundedTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Task>()

  constructor (readonly max: number) {}

  async load (taskId: string): Promise<Task | undefined> {
    const task = this.#tasks.get(taskId)
    return task === undefined ? undefined : structuredClone(task)
  }

  async save (task: Task): Promise<void> {
    const known = this.#tasks.has(task.id)
    this.#tasks.set(task.id, structuredClone(task))
    if (known) return
    while (this.#tasks.size > this.max) {
      const oldest = this.#tasks.keys().next().value
      if (oldest === undefined) break
      this.#tasks.delete(oldest)
    }
  }

  /** Newest first; filtered by context and state; one page (`pageSize`, at most 100). */
  async list (params: ListTasksRequest): Promise<ListTasksResponse> {
    let tasks = [...this.#tasks.values()].reverse()
    if (params.contextId !== '') tasks = tasks.filter(t => t.contextId === params.contextId)
    if (params.status !== undefined && params.status !== 0) tasks = tasks.filter(t => t.status?.state === params.status)
    const pageSize = Math.min(Math.max(params.pageSize ?? 50, 1), 100)
    const page = tasks.slice(0, pageSize).map(t => params.includeArtifacts === true ? structuredClone(t) : { ...structuredClone(t), artifacts: [] })
    return { tasks: page, nextPageToken: '', pageSize, totalSize: tasks.length }
  }
}
