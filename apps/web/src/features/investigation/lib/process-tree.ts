/** What the tree needs of a process (ProcessNode from the API, camelCased). */
export interface TreeProcess {
  key: string;
  parentKey: string | null;
  start: string;
}

export interface ProcessTreeIndex<P extends TreeProcess> {
  byKey: Map<string, P>;
  /** Processes without a parent in the answer, in start order. */
  roots: P[];
  children: Map<string, P[]>;
}

/** Indexes a flat list of processes by parent; a process whose parent is not in the list is a root. */
export function indexProcesses<P extends TreeProcess>(processes: readonly P[]): ProcessTreeIndex<P> {
  const byKey = new Map(processes.map((p) => [p.key, p]));
  const roots: P[] = [];
  const children = new Map<string, P[]>();
  for (const process of processes) {
    if (process.parentKey === null || !byKey.has(process.parentKey) || process.parentKey === process.key) {
      roots.push(process);
      continue;
    }
    const list = children.get(process.parentKey);
    if (list) list.push(process);
    else children.set(process.parentKey, [process]);
  }
  return { byKey, roots, children };
}

export interface VisibleProcess<P> {
  process: P;
  /** 0 for a root. */
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
  /** Key of the parent row, for ArrowLeft. */
  parentKey: string | null;
  /** Position among its siblings (1-based) and their number, for aria-posinset/setsize. */
  position: number;
  siblings: number;
}

/** The rows a tree shows, depth-first, with the descendants of collapsed processes left out. */
export function visibleProcesses<P extends TreeProcess>(
  index: ProcessTreeIndex<P>,
  collapsed: ReadonlySet<string>,
): VisibleProcess<P>[] {
  const rows: VisibleProcess<P>[] = [];
  const seen = new Set<string>();
  const stack: Array<{ process: P; depth: number; parentKey: string | null; position: number; siblings: number }> =
    index.roots
      .map((process, i) => ({ process, depth: 0, parentKey: null, position: i + 1, siblings: index.roots.length }))
      .reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (seen.has(item.process.key)) continue;
    seen.add(item.process.key);
    const kids = index.children.get(item.process.key) ?? [];
    const expanded = kids.length > 0 && !collapsed.has(item.process.key);
    rows.push({ ...item, hasChildren: kids.length > 0, expanded });
    if (expanded) {
      for (let i = kids.length - 1; i >= 0; i--)
        stack.push({
          process: kids[i]!,
          depth: item.depth + 1,
          parentKey: item.process.key,
          position: i + 1,
          siblings: kids.length,
        });
    }
  }
  return rows;
}

/** Keys of every process with children: what "collapse all" collapses. */
export function parentKeys<P extends TreeProcess>(index: ProcessTreeIndex<P>): Set<string> {
  return new Set(index.children.keys());
}

/** Keys of a process's ancestors, nearest first (to expand the way to a process). */
export function ancestorsOf<P extends TreeProcess>(index: ProcessTreeIndex<P>, key: string): string[] {
  const result: string[] = [];
  let current = index.byKey.get(key);
  while (current?.parentKey && index.byKey.has(current.parentKey) && !result.includes(current.parentKey)) {
    result.push(current.parentKey);
    current = index.byKey.get(current.parentKey);
  }
  return result;
}
