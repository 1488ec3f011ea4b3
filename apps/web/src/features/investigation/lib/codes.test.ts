import { endpointActions } from '@vigil/contract/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { endpointActionLabel, endpointCategoryLabel, networkCodeLabel, networkEventTypes } from './codes';
import { dhcpAck, networkEvent } from './network-event.fixture';
import { networkSummary } from './summaries';

/** A name in Russian: not the code itself, and in Cyrillic (protocol names such as DNS may stay). */
const isRussian = (code: string, name: string) => name !== code && /[\u0400-\u04FF]/.test(name);
/** Codes that are protocol names and read the same in every language. */
const protocols = new Set(['dns', 'http', 'tls', 'ssh', 'dhcp', 'smtp']);

beforeAll(async () => {
  await initI18n('ru');
});

const flow = networkEvent({
  appProto: 'tls',
  flow: {
    pktsToserver: 12,
    pktsToclient: 10,
    bytesToserver: 2048,
    bytesToclient: 90_000,
    start: null,
    end: null,
    state: 'closed',
    reason: 'timeout',
  },
});

describe('codes from sensors, in Russian', () => {
  it('a flow says how it ended in Russian, not "closed · timeout"', () => {
    expect(networkSummary(flow, 'ru', networkCodeLabel).detail).toBe('Закрыто · Тайм-аут');
  });

  it('a DHCP message is named in Russian, not "ack"', () => {
    const dhcp = networkEvent({ eventType: 'dhcp', dhcp: dhcpAck({ id: 7, assignedIp: '10.40.2.57' }) });
    expect(networkSummary(dhcp, 'ru', networkCodeLabel).main).toBe('Адрес выдан 00:1a:2b:3c:4d:5e → 10.40.2.57');
  });

  it('an endpoint action and its categories are named: "Создание файла", not "file-create"', () => {
    expect(endpointActionLabel('file-create')).toBe('Создание файла');
    expect(endpointActionLabel('process-create')).toBe('Создание процесса');
    expect(endpointCategoryLabel('authentication')).toBe('Аутентификация');
  });

  it('a code the dictionary does not know yet is shown as it came', () => {
    expect(endpointActionLabel('Process creation')).toBe('Process creation');
    expect(endpointActionLabel('made-up-action')).toBe('made-up-action');
    expect(networkCodeLabel('flowState', 'half-open')).toBe('half-open');
  });

  it('every code offered as a filter has a Russian name', () => {
    const unnamed = [
      ...networkEventTypes
        .filter((code) => !protocols.has(code))
        .map((code) => [code, networkCodeLabel('eventType', code)]),
      ...endpointActions.map((code) => [code, endpointActionLabel(code)]),
    ].filter(([code, name]) => !isRussian(code!, name!));
    expect(unnamed).toEqual([]);
  });
});
