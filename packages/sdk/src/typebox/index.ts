// TypeBox, the schema builder agentd validates with, served by the SDK so the kernel, the
// plugins and plugins installed from npm share one instance (its format registry, its
// compiled checks). Run from sources this is TypeBox itself; compiled (`npm start`, the
// `agentd-compiled` condition) it is one bundled file made by scripts/build.mjs: TypeBox is
// ~700 ES modules, and loading them one by one took ~250 ms of a start (bundled: ~40 ms).
// The tests load the same bundle (the `agentd-typebox-bundle` condition in .taprc): through
// tsx's module hooks the 700 modules cost ~2 s of CPU in every test file.
export * from 'typebox'
