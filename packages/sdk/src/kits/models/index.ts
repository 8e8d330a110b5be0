// The model-loading kit: local models for plugins that run one (language detection,
// translation, a third party's). `LazyModel` loads on first use (concurrent first callers
// share one load, progress logged and reported, a failure remembered with its reason and
// retried by the next caller), meant to be held in the resource pool so a loaded model
// survives live reloads; `loadHubPipeline` loads a transformers.js pipeline from the
// Hugging Face hub or a local folder, with progress, HF_TOKEN and a connect timeout.
// `@huggingface/transformers` is imported only on the first load: install it in the
// plugin's project when you use `loadHubPipeline` (an optional peer dependency).
export * from './lazy-model.ts'
export * from './hf-loader.ts'
export * from './transformers.ts'
