// Background work belongs to the generation that is serving. A plugin registers
// activate/deactivate pairs while it loads; the kernel activates them only after the
// generation has been swapped in, and deactivates them before it drains, so schedulers,
// watchers and timers never run twice.

export interface LifecycleParticipant {
  name: string
  activate?: () => Promise<void> | void
  deactivate?: () => Promise<void> | void
}

export class Lifecycle {
  readonly #participants: LifecycleParticipant[] = []
  readonly #watched = new Set<string>()
  #active = false
  #activated = false

  add (p: LifecycleParticipant): void {
    if (this.#active) throw new Error(`lifecycle.add("${p.name}") after activation; add participants while your plugin registers.`)
    this.#participants.push(p)
  }

  /** A file whose change should rebuild the whole generation (like plugins.json does). */
  reloadOn (file: string): void { this.#watched.add(file) }
  get watchedFiles (): string[] { return [...this.#watched] }

  get active (): boolean { return this.#active }
  /** Every participant's activate() has returned: what /api/health calls ready. */
  get activated (): boolean { return this.#activated }

  async activate (onError: (name: string, err: unknown) => void): Promise<void> {
    this.#active = true
    for (const p of this.#participants) {
      try { await p.activate?.() } catch (err) { onError(p.name, err) }
    }
    this.#activated = this.#active
  }

  async deactivate (onError: (name: string, err: unknown) => void): Promise<void> {
    if (!this.#active) return
    this.#active = false
    this.#activated = false
    for (const p of [...this.#participants].reverse()) {
      try { await p.deactivate?.() } catch (err) { onError(p.name, err) }
    }
  }
}
