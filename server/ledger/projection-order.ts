// The order projections run in for each fact: a projection that reads another's read model (the
// analytics reads booking's orders) names it in `after`, and runs after it whatever the order of
// the list it was given. An unknown name or a cycle is a programming error, refused at start.
/** what ordering needs of a projection, on either store */
type Ordered = { name: string; after?: readonly string[] | undefined }

export function inDependencyOrder<P extends Ordered>(projections: readonly P[]): P[] {
  const byName = new Map(projections.map((p) => [p.name, p]))
  const ordered: P[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (p: P, path: string[]) => {
    if (state.get(p.name) === 'done') return
    if (state.get(p.name) === 'visiting') {
      throw new Error(`projections depend on each other in a cycle: ${[...path, p.name].join(' -> ')}`)
    }
    state.set(p.name, 'visiting')
    for (const name of p.after ?? []) {
      const dependency = byName.get(name)
      if (!dependency) throw new Error(`projection ${p.name} runs after ${name}, which is not there`)
      visit(dependency, [...path, p.name])
    }
    state.set(p.name, 'done')
    ordered.push(p)
  }
  for (const p of projections) visit(p, [])
  return ordered
}
