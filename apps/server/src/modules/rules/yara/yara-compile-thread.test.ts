import { afterAll, describe, expect, it } from 'vitest';
import { checkYaraSource } from './yara-compile';
import { YaraCompileThread } from './yara-compile-thread';

const thread = new YaraCompileThread();
afterAll(() => thread.close());

/** Many rules with many strings: a source the compiler takes a while over. */
function largeSource(rules: number): string {
  const out: string[] = [];
  for (let r = 0; r < rules; r += 1) {
    const strings = Array.from({ length: 8 }, (_, s) => `    $s${s} = "needle-${r}-${s}-text" nocase wide ascii`);
    out.push(`rule r${r} {\n  strings:\n${strings.join('\n')}\n  condition:\n    2 of them\n}`);
  }
  return out.join('\n');
}

describe('the YARA compiling thread', () => {
  it('answers what checkYaraSource answers, reasons included', async () => {
    const good = 'rule ok { strings: $a = "abc" condition: $a }';
    const bad = 'rule bad {\n  condition:\n    nothing_here\n}';
    expect(await thread.check(good)).toEqual(checkYaraSource(good));
    const refused = await thread.check(bad);
    expect(refused).toEqual(checkYaraSource(bad));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.reason).toMatch(/line 3: .*nothing_here/);
  });

  it('leaves this thread free while it compiles', async () => {
    let ticks = 0;
    let done = false;
    const tick = () => {
      ticks += 1;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const result = await thread.check(largeSource(3000));
    done = true;
    expect(result.ok).toBe(true);
    // Compiled here, the same source would have held the event loop: no tick could run meanwhile.
    expect(ticks).toBeGreaterThan(10);
  }, 120_000);
});
