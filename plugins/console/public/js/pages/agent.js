// Agent: run a task in full agent mode with a strategy and watch it work
// (POST /api/agent/run/stream): the plan as soon as it is made, then each step and tool
// call as it happens; Cancel closes the stream, which cancels the run on the server; the
// result comes with its trace.
import { useState, useRef, useEffect } from 'preact/hooks'
import { html, useApi, ErrorBox, Badge, fmtMs } from '../ui.js'
import { streamPost } from '../api.js'
import { Markdown } from '../lazy-markdown.js'

/** The strategies this server loaded: plugins whose module is a strategy (the agent accepts `auto` too). */
const strategiesOf = (plugins) => (plugins ?? []).filter(p => /strategy-/.test(p.module ?? '') && p.status !== 'failed').map(p => p.name)

function StepItem ({ s }) {
  if (s.kind === 'tool') {
    return html`<li class="step tool-step" data-type=${`tool-${s.phase}`}>
      <span class="tag">${s.phase === 'call' ? 'tool call' : s.is_error ? 'tool error' : 'tool result'}</span> <code>${s.tool}</code>
      <pre>${s.phase === 'call' ? JSON.stringify(s.arguments ?? {}) : s.content}</pre>
    </li>`
  }
  return html`<li class="step" data-type=${s.type}>
    <span class="tag">${s.type.replaceAll('_', ' ')}</span>${s.model ? html` <small class="muted">${s.model}${s.time_ms !== undefined ? ` · ${fmtMs(s.time_ms)}` : ''}</small>` : null}
    ${s.content ? html`<pre>${s.content}</pre>` : null}
  </li>`
}

function Result ({ r }) {
  return html`<section class="panel result" aria-label="result">
    <div class="row"><h2>Result</h2> <${Badge} status=${r.status} /></div>
    <p class="muted">${r.strategy} · ${r.iterations} model calls · ${r.total_tokens} tokens · ${fmtMs(r.total_time_ms)}${r.tools_used.length > 0 ? ` · tools: ${r.tools_used.join(', ')}` : ''}</p>
    ${r.error ? html`<${ErrorBox} error=${{ message: r.error.error, code: r.error.code }} what="The run failed" />` : null}
    <div class="bubble answer md"><${Markdown} text=${r.answer} /></div>
    ${r.trace ? html`<details class="trace"><summary>Trace (${r.trace.length} entries)</summary>
      <ol>${r.trace.map(s => html`<li><span class="tag">${s.type}</span> <pre>${s.content}</pre></li>`)}</ol></details>` : null}
  </section>`
}

export function AgentPage () {
  const plugins = useApi('/api/plugins')
  const [task, setTask] = useState('')
  const [strategy, setStrategy] = useState('auto')
  const [run, setRun] = useState(null)
  const [failure, setFailure] = useState(null)
  const ctl = useRef(null)
  useEffect(() => () => ctl.current?.abort(), [])
  const busy = run?.running === true

  const start = async (e) => {
    e.preventDefault()
    if (busy || task.trim() === '') return
    setFailure(null)
    let state = { running: true, plan: [], steps: [], result: null, cancelled: false }
    const update = (patch) => { state = { ...state, ...patch }; setRun(state) }
    update({})
    ctl.current = new AbortController()
    try {
      await streamPost('/api/agent/run/stream', { task: task.trim(), reasoning_strategy: strategy }, {
        signal: ctl.current.signal,
        onEvent: (name, data) => {
          if (name === 'plan') update({ plan: data.steps ?? [] })
          else if (name === 'step') update({ steps: [...state.steps, { kind: 'step', ...data }] })
          else if (name === 'tool') update({ steps: [...state.steps, { kind: 'tool', ...data }] })
          else if (name === 'answer') update({ result: data })
          else if (name === 'error') setFailure({ message: data.error, code: data.code })
        },
      })
    } catch (err) {
      if (err.name === 'AbortError') update({ cancelled: true })
      else setFailure(err)
    } finally {
      ctl.current = null
      update({ running: false })
    }
  }

  const names = strategiesOf(plugins.data?.plugins)
  // Cancel and Run are keyed: two elements, so a click on Cancel never becomes a click on
  // Run (a re-render before the click's default action would turn the same button into a submit).
  return html`<div class="page agent"><h1>Agent</h1>
    <form class="panel agent-form" onSubmit=${start}>
      <label for="agent-task">Task</label>
      <textarea id="agent-task" rows="3" value=${task} onInput=${e => setTask(e.target.value)} placeholder="What should the agent do?"></textarea>
      <div class="row">
        <label>Strategy <select name="strategy" value=${strategy} onChange=${e => setStrategy(e.target.value)}>
          <option value="auto">auto</option>
          ${names.map(n => html`<option value=${n}>${n}</option>`)}
        </select></label>
        ${busy
          ? html`<button key="cancel" type="button" class="stop" onClick=${() => ctl.current?.abort()}>Cancel</button>`
          : html`<button key="run" type="submit" class="primary" disabled=${task.trim() === ''}>Run</button>`}
      </div>
    </form>
    <${ErrorBox} error=${failure} what="The run failed" />
    ${run ? html`<div class="split">
      <section class="panel" aria-label="plan"><h2>Plan</h2>
        ${run.plan.length === 0 ? html`<p class="muted" aria-busy=${busy}>${busy ? 'Planning…' : 'No plan.'}</p>` : html`<ol class="plan">${run.plan.map(s => html`<li><span class="tag">${s.type}</span> ${s.description}</li>`)}</ol>`}
      </section>
      <section class="panel" aria-label="steps" aria-live="polite" aria-busy=${busy}><h2>Steps</h2>
        <ol class="steps">${run.steps.map(s => html`<${StepItem} s=${s} />`)}</ol>
        ${run.cancelled ? html`<p class="muted cancelled">Cancelled.</p>` : null}
      </section>
    </div>` : null}
    ${run?.result ? html`<${Result} r=${run.result} />` : null}
  </div>`
}
