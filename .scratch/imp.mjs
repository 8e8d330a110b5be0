const t0 = performance.now()
const mods = (process.env.MODS ?? '').split(',')
for (const m of mods) { const t = performance.now(); await import(m); console.log(m, (performance.now() - t).toFixed(1)) }
console.log('total', (performance.now() - t0).toFixed(1))
