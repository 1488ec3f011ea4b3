// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { offsetForRow, rowRange, useFixedRows, type FixedRows } from './use-fixed-rows';

describe('rowRange', () => {
  it('at the top: the rows the box shows and the overscan below', () => {
    // 400 px of 40 px rows: rows 0–9 show; row 9 ends exactly at the bottom edge.
    expect(rowRange(1000, 40, 400, 0, 0)).toEqual({ first: 0, last: 9 });
    expect(rowRange(1000, 40, 400, 0, 8)).toEqual({ first: 0, last: 17 });
  });

  it('in the middle: part-shown rows at both edges count, overscan on both sides', () => {
    // Scrolled 420 px: row 10 (400–440) is cut at the top, row 20 (800–840) at the bottom.
    expect(rowRange(1000, 40, 400, 420, 0)).toEqual({ first: 10, last: 20 });
    expect(rowRange(1000, 40, 400, 420, 3)).toEqual({ first: 7, last: 23 });
    expect(rowRange(1000, 40, 400, 400, 0)).toEqual({ first: 10, last: 19 });
  });

  it('at the bottom: the overscan stops at the last row', () => {
    expect(rowRange(1000, 40, 400, 39600, 8)).toEqual({ first: 982, last: 999 });
    // A box scrolled past the end of a list that got shorter shows its last screen.
    expect(rowRange(100, 40, 400, 39600, 0)).toEqual({ first: 90, last: 99 });
  });

  it('fewer rows than the box holds: all of them', () => {
    expect(rowRange(3, 40, 400, 0, 8)).toEqual({ first: 0, last: 2 });
    expect(rowRange(1, 40, 400, 0, 8)).toEqual({ first: 0, last: 0 });
  });

  it('no rows, or a box without height: nothing', () => {
    expect(rowRange(0, 40, 400, 0, 8)).toBeNull();
    expect(rowRange(100, 40, 0, 0, 8)).toBeNull();
  });
});

describe('offsetForRow', () => {
  const geometry = { count: 1000, rowHeight: 40, viewport: 400, offset: 800, maxOffset: 40000 - 400 };

  it('auto: a row inside the box needs no scrolling', () => {
    expect(offsetForRow(25, geometry)).toBeUndefined();
  });

  it('auto, downwards: a row at or below the bottom edge is brought to the bottom', () => {
    expect(offsetForRow(29, geometry)).toBe(800); // ends exactly at the edge
    expect(offsetForRow(30, geometry)).toBe(840);
    expect(offsetForRow(100, geometry)).toBe(3640);
  });

  it('auto, upwards: a row at or above the top edge is brought to the top', () => {
    expect(offsetForRow(20, geometry)).toBe(800);
    expect(offsetForRow(19, geometry)).toBe(760);
    expect(offsetForRow(0, geometry)).toBe(0);
  });

  it('the last row goes to the end of the box; the offset stays within it', () => {
    expect(offsetForRow(999, geometry)).toBe(39600);
    expect(offsetForRow(5000, geometry)).toBe(39600);
    expect(offsetForRow(998, { ...geometry, maxOffset: 39000 })).toBe(39000);
    expect(offsetForRow(-3, geometry)).toBe(0);
  });

  it('start and end align whatever the row shows', () => {
    expect(offsetForRow(25, geometry, 'start')).toBe(1000);
    expect(offsetForRow(25, geometry, 'end')).toBe(640);
  });

  it('no rows: nowhere to go', () => {
    expect(offsetForRow(0, { ...geometry, count: 0 })).toBeUndefined();
  });
});

/** ResizeObserver of the test: the box's size changes when a test says so. */
const observers: { callback: ResizeObserverCallback; targets: Element[] }[] = [];
class TestResizeObserver {
  private entry: { callback: ResizeObserverCallback; targets: Element[] };
  constructor(callback: ResizeObserverCallback) {
    this.entry = { callback, targets: [] };
    observers.push(this.entry);
  }
  observe(target: Element) {
    this.entry.targets.push(target);
  }
  unobserve() {}
  disconnect() {
    this.entry.targets = [];
  }
}

/** A scroll box with the sizes a browser would give it. */
function sizeBox(box: HTMLElement, content: () => number) {
  Object.defineProperty(box, 'scrollHeight', { configurable: true, get: () => Math.max(box.clientHeight, content()) });
  box.scrollTo = ((options: ScrollToOptions) => {
    box.scrollTop = options.top ?? box.scrollTop;
    fireEvent.scroll(box);
  }) as HTMLElement['scrollTo'];
}

let latest: FixedRows | undefined;
let renders = 0;
function Rows({ count, initialHeight = 400 }: { count: number; initialHeight?: number }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useFixedRows({ count, rowHeight: 40, overscan: 2, initialHeight, scrollRef });
  latest = rows;
  renders += 1;
  return (
    <div ref={scrollRef} data-testid="box">
      <div style={{ height: rows.totalSize }}>
        {rows.items.map((item) => (
          <div key={item.index} data-start={item.start}>
            row {item.index}
          </div>
        ))}
      </div>
    </div>
  );
}

function shown(): number[] {
  return (latest?.items ?? []).map((item) => item.index);
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('useFixedRows', () => {
  let height = 400;
  beforeEach(() => {
    height = 400;
    observers.length = 0;
    renders = 0;
    vi.stubGlobal('ResizeObserver', TestResizeObserver);
    // Every box of the test is `height` px high, until a test resizes it.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => height);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    latest = undefined;
  });

  function mount(count: number) {
    const view = render(<Rows count={count} />);
    const box = view.getByTestId('box');
    sizeBox(box, () => latest?.totalSize ?? 0);
    return { ...view, box };
  }

  it('draws the rows of the first screen and the overscan; the list is as high as all rows', () => {
    const { box } = mount(1000);
    expect(shown()).toEqual(range(0, 11));
    expect(latest?.totalSize).toBe(40000);
    expect(box.textContent).toContain('row 11');
    expect(box.textContent).not.toContain('row 12');
    expect(box.querySelector('[data-start="440"]')?.textContent).toBe('row 11');
  });

  it('follows scrolling, and renders only when the rows to draw change', () => {
    const { box } = mount(1000);
    box.scrollTop = 4000;
    act(() => {
      fireEvent.scroll(box);
    });
    expect(shown()).toEqual(range(98, 111));
    box.scrollTop = 4010;
    act(() => {
      fireEvent.scroll(box);
    });
    expect(shown()).toEqual(range(98, 112));
    const before = renders;
    box.scrollTop = 4030; // still rows 100–110 in view
    act(() => {
      fireEvent.scroll(box);
    });
    expect(renders).toBe(before);
    box.scrollTop = 39600;
    act(() => {
      fireEvent.scroll(box);
    });
    expect(shown()).toEqual(range(988, 999));
  });

  it('follows the box when it is resized', () => {
    mount(1000);
    expect(observers[0]?.targets).toHaveLength(1);
    height = 800;
    act(() => {
      for (const observer of observers) observer.callback([], observer as unknown as ResizeObserver);
    });
    expect(shown()).toEqual(range(0, 21));
    height = 120;
    act(() => {
      for (const observer of observers) observer.callback([], observer as unknown as ResizeObserver);
    });
    expect(shown()).toEqual(range(0, 4));
  });

  it('stops observing the box when it goes', () => {
    const { unmount } = mount(1000);
    unmount();
    expect(observers.every((observer) => observer.targets.length === 0)).toBe(true);
  });

  it('scrolls a row into view: down to the bottom edge, up to the top edge, not at all when it shows', () => {
    const { box } = mount(1000);
    act(() => latest?.scrollToIndex(5, { align: 'auto' }));
    expect(box.scrollTop).toBe(0);
    act(() => latest?.scrollToIndex(30, { align: 'auto' }));
    expect(box.scrollTop).toBe(840);
    expect(shown()).toEqual(range(19, 32));
    act(() => latest?.scrollToIndex(22, { align: 'auto' }));
    expect(box.scrollTop).toBe(840);
    act(() => latest?.scrollToIndex(3, { align: 'auto' }));
    expect(box.scrollTop).toBe(120);
    expect(shown()).toEqual(range(1, 14));
  });

  it('no rows: nothing drawn, no height, nowhere to scroll', () => {
    const { box } = mount(0);
    expect(shown()).toEqual([]);
    expect(latest?.totalSize).toBe(0);
    box.scrollTop = 0;
    act(() => latest?.scrollToIndex(3));
    expect(box.scrollTop).toBe(0);
  });

  it('draws more rows when they arrive', () => {
    const view = mount(3);
    expect(shown()).toEqual([0, 1, 2]);
    view.rerender(<Rows count={50} />);
    expect(shown()).toEqual(range(0, 11));
  });
});
