/*
 * An Aho–Corasick automaton over many needles: one pass over a text finds every needle in it,
 * in time linear in the text's length plus the number of hits, however many needles there are.
 */

export class AhoCorasick {
  /** Per node: next node by character code. */
  private readonly next: Map<number, number>[] = [new Map()];
  private readonly fail: number[] = [0];
  /** Per node: the needles (their index) that end here, own and through the failure links. */
  private readonly out: number[][] = [[]];

  constructor(needles: readonly string[]) {
    needles.forEach((needle, index) => {
      let node = 0;
      for (let i = 0; i < needle.length; i++) {
        const c = needle.charCodeAt(i);
        let child = this.next[node]!.get(c);
        if (child === undefined) {
          child = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.out.push([]);
          this.next[node]!.set(c, child);
        }
        node = child;
      }
      this.out[node]!.push(index);
    });
    // Breadth first: a node's failure link is the longest proper suffix of its text that is a prefix of a needle.
    const queue: number[] = [...this.next[0]!.values()];
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q]!;
      for (const [c, child] of this.next[node]!) {
        queue.push(child);
        let f = this.fail[node]!;
        while (f !== 0 && !this.next[f]!.has(c)) f = this.fail[f]!;
        const target = this.next[f]!.get(c);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        const inherited = this.out[this.fail[child]!]!;
        if (inherited.length > 0) this.out[child] = [...this.out[child]!, ...inherited];
      }
    }
  }

  /** Calls `hit` with the index of each needle found in the text (a needle may be reported more than once). */
  search(text: string, hit: (needle: number) => void): void {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let child = this.next[node]!.get(c);
      while (child === undefined && node !== 0) {
        node = this.fail[node]!;
        child = this.next[node]!.get(c);
      }
      node = child ?? 0;
      const found = this.out[node]!;
      for (let k = 0; k < found.length; k++) hit(found[k]!);
    }
  }
}
