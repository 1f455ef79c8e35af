// Node positions for vue-flow from dagre (a layered layout: causes left of effects, origin first).
import dagre from '@dagrejs/dagre'

export interface LayoutNode { id: string; width?: number; height?: number }
export interface LayoutEdge { source: string; target: string }
export type Positions = Record<string, { x: number; y: number }>

export function layout(nodes: LayoutNode[], edges: LayoutEdge[], direction: 'LR' | 'TB' = 'LR'): Positions {
  const g = new dagre.graphlib.Graph({ multigraph: true })
  g.setGraph({ rankdir: direction, nodesep: 30, ranksep: 70, marginx: 10, marginy: 10 })
  g.setDefaultEdgeLabel(() => ({}))
  for (const n of nodes) g.setNode(n.id, { width: n.width ?? 170, height: n.height ?? 56 })
  edges.forEach((e, i) => {
    if (g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target, {}, `e${i}`)
  })
  dagre.layout(g)
  const out: Positions = {}
  for (const n of nodes) {
    const p = g.node(n.id)
    out[n.id] = { x: p.x - (n.width ?? 170) / 2, y: p.y - (n.height ?? 56) / 2 }
  }
  return out
}
