// @vitest-environment happy-dom
import { render } from '@testing-library/react';
import { alertSeverityValues, alertStatuses, incidentStatuses } from '@vigil/contract/client';
import { i18next } from '../../lib/i18n';
import { describe, expect, it } from 'vitest';
import {
  AlertStatusBadge,
  IncidentStatusBadge,
  SeverityBadge,
  alertStatusPill,
  incidentStatusPill,
  severityPill,
  triageLabels,
} from './badges';
import { setUpComponentTests } from '../../test/component-tests';

setUpComponentTests();

const html = (node: Parameters<typeof render>[0]) => render(node).container.innerHTML;

describe('plain badges for table rows', () => {
  it('draw exactly what the badge components draw, for every value', () => {
    const labels = triageLabels(i18next.t);
    for (const severity of alertSeverityValues) {
      expect(html(severityPill(severity, labels.severity[severity]))).toBe(html(<SeverityBadge severity={severity} />));
    }
    for (const status of alertStatuses) {
      expect(html(alertStatusPill(status, labels.alertStatus[status]))).toBe(
        html(<AlertStatusBadge status={status} />),
      );
    }
    for (const status of incidentStatuses) {
      expect(html(incidentStatusPill(status, labels.incidentStatus[status]))).toBe(
        html(<IncidentStatusBadge status={status} />),
      );
    }
  });

  it('names every value through the translation function it is given', () => {
    const labels = triageLabels(((key: string) => `<${key}>`) as unknown as typeof i18next.t);
    expect(labels.severity.critical).toBe('<triage.severity.critical>');
    expect(labels.alertStatus.in_progress).toBe('<triage.alertStatus.in_progress>');
    expect(Object.keys(labels.incidentStatus)).toEqual([...incidentStatuses]);
    expect(triageLabels(i18next.t).severity.critical).toBe('Critical');
  });
});
