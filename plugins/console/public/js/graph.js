// Draws an entity's graph as SVG: the entity in the middle, entities one hop away on the
// first ring, two hops on the second, three on the third; each edge labelled with its
// relationship type and pointing the way the relationship goes. A fixed radial layout
// rather than a force simulation: depth is at most 3, and rings show the hop count.
import { html } from './ui.js'

const SIZE = 560
const C = SIZE / 2
// Wide enough that an edge's label, at its middle, clears the node labels at both ends.
const RING = 120

export function layout (graph) {
  const nodes = new Map()
  const root = graph.entity
  nodes.set(root.id, { id: root.id, name: root.name, type: root.type, depth: 0, x: C, y: C })
  const rels = graph.relationships ?? []
  // A node's ring is the smallest depth at which an edge reaches it.
  const depthOf = new Map()
  for (const r of rels) {
    for (const end of [r.source, r.target]) {
      if (!end || end.id === root.id) continue
      const d = Math.min(depthOf.get(end.id)?.depth ?? Infinity, r.depth ?? 1)
      depthOf.set(end.id, { ...end, depth: d })
    }
  }
  const byRing = new Map()
  for (const n of depthOf.values()) byRing.set(n.depth, [...(byRing.get(n.depth) ?? []), n])
  for (const [ring, list] of byRing) {
    list.sort((a, b) => String(a.name).localeCompare(String(b.name)))
    list.forEach((n, i) => {
      const a = (2 * Math.PI * i) / list.length - Math.PI / 2 + (ring - 1) * 0.35
      nodes.set(n.id, { ...n, x: C + Math.cos(a) * RING * ring, y: C + Math.sin(a) * RING * ring })
    })
  }
  const edges = rels.map(r => {
    // Older stores give only `target` and a direction relative to the root.
    const src = r.source ?? (r.direction === 'incoming' ? r.target : root)
    const dst = r.source ? r.target : (r.direction === 'incoming' ? root : r.target)
    return { from: nodes.get(src?.id), to: nodes.get(dst?.id), type: r.type, confidence: r.confidence }
  }).filter(e => e.from && e.to)
  return { nodes: [...nodes.values()], edges, rings: Math.max(0, ...byRing.keys()) }
}

export function EntityGraph ({ graph, onOpen }) {
  const { nodes, edges, rings } = layout(graph)
  const label = (s) => String(s).length > 18 ? `${String(s).slice(0, 17)}…` : String(s)
  // Fit the drawing to the rings it has, so a small graph is not lost in a big square.
  const half = RING * Math.max(rings, 1) + 60
  const edgeLabel = (e) => {
    const dx = e.to.x - e.from.x; const dy = e.to.y - e.from.y; const len = Math.hypot(dx, dy) || 1
    return { x: e.from.x + dx * 0.55 - (dy / len) * 6, y: e.from.y + dy * 0.55 + (dx / len) * 6 + 4 }
  }
  return html`<svg class="graph" viewBox=${`${C - half} ${C - half} ${2 * half} ${2 * half}`} role="img" aria-label=${`Graph of ${graph.entity.name}: ${nodes.length - 1} connected entities, ${edges.length} relationships`}>
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="24" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead" /></marker></defs>
    ${Array.from({ length: rings }, (_, i) => html`<circle class="ring" cx=${C} cy=${C} r=${RING * (i + 1)} />`)}
    ${edges.map(e => html`<g class="edge">
      <line x1=${e.from.x} y1=${e.from.y} x2=${e.to.x} y2=${e.to.y} marker-end="url(#arrow)" />
      <text x=${edgeLabel(e).x} y=${edgeLabel(e).y}>${e.type}</text>
    </g>`)}
    ${nodes.map(n => html`<g class=${`node depth-${n.depth}`} transform=${`translate(${n.x},${n.y})`}
        tabindex=${n.depth === 0 ? undefined : 0} role=${n.depth === 0 ? undefined : 'button'} aria-label=${`${n.name} (${n.type})`}
        onClick=${() => n.depth > 0 && onOpen?.(n.id)} onKeyDown=${e => { if (n.depth > 0 && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); onOpen?.(n.id) } }}>
      <circle r=${n.depth === 0 ? 16 : 11} />
      <text y=${n.depth === 0 ? 32 : 26}>${label(n.name)}</text>
      <text class="type" y=${n.depth === 0 ? 45 : 38}>${n.type}</text>
    </g>`)}
  </svg>`
}
