// Fake local model servers on loopback, each the OpenAI-compatible fake plus the native
// endpoint its real counterpart offers for model details, and the real one's refusal of
// tools for a model that cannot use them:
//   Ollama:    POST /api/show {model} -> { capabilities: ["completion", "tools", ...], model_info,
//              details }, 404 { error: "model 'x' not found" }; GET /api/version; a chat
//              completion with `tools` for a model without "tools" -> 400 "<model> does not
//              support tools" (its OpenAI-compatible error shape).
//   LM Studio: GET /api/v0/models -> { object: "list", data: [{ id, object: "model", type,
//              publisher, arch, compatibility_type, quantization, state, max_context_length,
//              capabilities? }] } (capabilities since 0.3.16: ["tool_use"] or []); unknown
//              native paths -> { error: "Unexpected endpoint or method. (...)" }.
//   A server that refuses tools (vLLM without --enable-auto-tool-choice): no native
//              endpoint; any completion with `tools` -> 400 naming the flag (vLLM's
//              OpenAI-shaped error body).
import { FakeOpenAI, type RecordedRequest } from './openai-upstream.ts'

export interface OllamaModel { name: string, capabilities?: string[], context_length?: number }

export async function startFakeOllama (t: { teardown: (fn: () => Promise<void>) => void }, models: OllamaModel[]): Promise<FakeOpenAI> {
  const byName = new Map(models.map(m => [m.name, m]))
  const fake = new FakeOpenAI({
    models: models.map(m => m.name),
    native: (req: RecordedRequest) => {
      if (req.method === 'GET' && req.path === '/api/version') return { status: 200, body: { version: '0.12.3' } }
      if (req.method === 'GET' && req.path === '/api/tags') return { status: 200, body: { models: models.map(m => ({ name: m.name, model: m.name, details: { family: 'llama' } })) } }
      if (req.method === 'POST' && req.path === '/api/show') {
        const name = String(req.body?.model ?? req.body?.name ?? '')
        const m = byName.get(name) ?? byName.get(`${name}:latest`)
        if (m === undefined) return { status: 404, body: { error: `model '${name}' not found` } }
        const body: Record<string, unknown> = {
          modelfile: '# Modelfile', parameters: 'temperature 0.7', template: '{{ .Prompt }}',
          details: { format: 'gguf', family: 'llama', parameter_size: '8B', quantization_level: 'Q4_K_M' },
          model_info: { 'general.architecture': 'llama', 'llama.context_length': m.context_length ?? 131072 },
          modified_at: '2025-01-01T00:00:00Z',
        }
        if (m.capabilities !== undefined) body.capabilities = m.capabilities
        return { status: 200, body }
      }
      if (req.path.endsWith('/chat/completions') && Array.isArray(req.body?.tools) && req.body.tools.length > 0) {
        const m = byName.get(String(req.body?.model))
        if (m !== undefined && m.capabilities !== undefined && !m.capabilities.includes('tools')) {
          return { status: 400, body: { error: { message: `registry.ollama.ai/library/${m.name} does not support tools`, type: 'api_error', param: null, code: null } } }
        }
      }
      if (req.path.startsWith('/api/')) return { status: 404, body: '404 page not found' }
      return undefined
    },
  })
  await fake.start()
  t.teardown(async () => { await fake.close() })
  return fake
}

export interface LmStudioModel { id: string, type?: 'llm' | 'vlm' | 'embeddings', capabilities?: string[], max_context_length?: number }

export async function startFakeLmStudio (t: { teardown: (fn: () => Promise<void>) => void }, models: LmStudioModel[]): Promise<FakeOpenAI> {
  const fake = new FakeOpenAI({
    models: models.map(m => m.id),
    native: (req: RecordedRequest) => {
      if (req.method === 'GET' && req.path === '/api/v0/models') {
        return {
          status: 200,
          body: {
            object: 'list',
            data: models.map(m => ({
              id: m.id, object: 'model', type: m.type ?? 'llm', publisher: 'lmstudio-community', arch: 'qwen2',
              compatibility_type: 'gguf', quantization: 'Q4_K_M', state: 'loaded', max_context_length: m.max_context_length ?? 32768,
              ...(m.capabilities === undefined ? {} : { capabilities: m.capabilities }),
            })),
          },
        }
      }
      if (req.path.startsWith('/api/')) return { status: 404, body: { error: `Unexpected endpoint or method. (${req.method} ${req.path})` } }
      return undefined
    },
  })
  await fake.start()
  t.teardown(async () => { await fake.close() })
  return fake
}

/** An OpenAI-compatible server (vLLM started without --enable-auto-tool-choice) that answers 400 to any request with tools. */
export async function startToolRefusingServer (t: { teardown: (fn: () => Promise<void>) => void }, models: string[]): Promise<FakeOpenAI> {
  const fake = new FakeOpenAI({
    models,
    native: (req: RecordedRequest) => {
      if (req.path.endsWith('/chat/completions') && Array.isArray(req.body?.tools) && req.body.tools.length > 0) {
        return { status: 400, body: { error: { message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', param: null, code: 400 } } }
      }
      if (req.path.startsWith('/api/')) return { status: 404, body: { detail: 'Not Found' } }
      return undefined
    },
  })
  await fake.start()
  t.teardown(async () => { await fake.close() })
  return fake
}
