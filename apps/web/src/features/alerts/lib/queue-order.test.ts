// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { neighbours, readQueueOrder, saveQueueOrder } from './queue-order';

afterEach(() => sessionStorage.clear());

describe('queue order', () => {
  it('gives the previous and next alert of the queue an alert was opened from', () => {
    saveQueueOrder('/alerts?status=new', [9, 7, 5]);
    const order = readQueueOrder();
    expect(order).toEqual({ href: '/alerts?status=new', ids: [9, 7, 5] });
    expect(neighbours(order, 7)).toEqual({ previous: 9, next: 5, position: 2, total: 3 });
    expect(neighbours(order, 9)).toMatchObject({ previous: null, next: 7 });
    expect(neighbours(order, 5)).toMatchObject({ previous: 7, next: null });
    expect(neighbours(order, 4)).toEqual({ previous: null, next: null, position: null, total: null });
  });

  it('ignores what it did not write', () => {
    sessionStorage.setItem('vigil.alerts.queue', '{"href":"https://evil.example/","ids":[1]}');
    expect(readQueueOrder()).toBeNull();
    sessionStorage.setItem('vigil.alerts.queue', 'not json');
    expect(readQueueOrder()).toBeNull();
  });
});
