/*
 * An Aho–Corasick automaton over many needles: one pass over a text finds every needle in it,
 * in time linear in the text's length plus the number of hits, however many needles there are.
 *
 * Built as a trie of maps, then packed into typed arrays: each node's children sorted by
 * character (most nodes have one or two, found by a short scan), and a full table for the root,
 * where the search spends most of its steps (a character that starts no needle stays there).
 */

export class AhoCorasick {
  /** From the root, by character code (UTF-16 unit): the next node, 0 for none. */
  private readonly root = new Int32Array(0x10000);
  /** Children of node n: keys and targets at [childStart[n], childStart[n + 1]). */
  private readonly childStart: Int32Array;
  private readonly childKeys: Uint16Array;
  private readonly childTargets: Int32Array;
  private readonly fail: Int32Array;
  /** Needles (their index) that end at node n, own and through the failure links: [outStart[n], outStart[n + 1]). */
  private readonly outStart: Int32Array;
  private readonly outList: Int32Array;

  constructor(needles: readonly string[]) {
    const next: Map<number, number>[] = [new Map()];
    const out: number[][] = [[]];
    needles.forEach((needle, index) => {
      // An empty needle is never reported (it keeps its index, so the others keep theirs).
      if (needle === '') return;
      let node = 0;
      for (let i = 0; i < needle.length; i++) {
        const c = needle.charCodeAt(i);
        let child = next[node]!.get(c);
        if (child === undefined) {
          child = next.length;
          next.push(new Map());
          out.push([]);
          next[node]!.set(c, child);
        }
        node = child;
      }
      out[node]!.push(index);
    });
    // Breadth first: a node's failure link is the longest proper suffix of its text that is a prefix of a needle.
    const fail = new Int32Array(next.length);
    const queue: number[] = [...next[0]!.values()];
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q]!;
      for (const [c, child] of next[node]!) {
        queue.push(child);
        let f = fail[node]!;
        while (f !== 0 && !next[f]!.has(c)) f = fail[f]!;
        const target = next[f]!.get(c);
        fail[child] = target !== undefined && target !== child ? target : 0;
        const inherited = out[fail[child]!]!;
        if (inherited.length > 0) out[child] = [...out[child]!, ...inherited];
      }
    }
    this.fail = fail;
    for (const [c, child] of next[0]!) this.root[c] = child;
    let children = 0;
    let outputs = 0;
    for (let n = 0; n < next.length; n++) {
      children += next[n]!.size;
      outputs += out[n]!.length;
    }
    this.childStart = new Int32Array(next.length + 1);
    this.childKeys = new Uint16Array(children);
    this.childTargets = new Int32Array(children);
    this.outStart = new Int32Array(next.length + 1);
    this.outList = new Int32Array(outputs);
    let c = 0;
    let o = 0;
    for (let n = 0; n < next.length; n++) {
      this.childStart[n] = c;
      for (const [key, target] of [...next[n]!].sort((a, b) => a[0] - b[0])) {
        this.childKeys[c] = key;
        this.childTargets[c++] = target;
      }
      this.outStart[n] = o;
      for (const needle of out[n]!) this.outList[o++] = needle;
    }
    this.childStart[next.length] = c;
    this.outStart[next.length] = o;
  }

  /**
   * Adds to `found` each needle in the text not marked yet with `mark` in `marks`, and marks it:
   * the engine's pass, with no call per occurrence (a common needle occurs many times in a text).
   */
  collect(text: string, marks: Uint32Array, mark: number, found: number[]): void {
    const { root, childStart, childKeys, childTargets, fail, outStart, outList } = this;
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      for (;;) {
        if (node === 0) {
          node = root[c]!;
          break;
        }
        let child = 0;
        for (let k = childStart[node]!, end = childStart[node + 1]!; k < end; k++) {
          const key = childKeys[k]!;
          if (key === c) {
            child = childTargets[k]!;
            break;
          }
          if (key > c) break;
        }
        if (child !== 0) {
          node = child;
          break;
        }
        node = fail[node]!;
      }
      for (let k = outStart[node]!, end = outStart[node + 1]!; k < end; k++) {
        const needle = outList[k]!;
        if (marks[needle] !== mark) {
          marks[needle] = mark;
          found.push(needle);
        }
      }
    }
  }
}
